import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { TicketId } from './lib/ticket-schema.js';
import { ticketOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.delete_ticket',
  integration: ticketing,
  title: 'Delete Ticket',
  description: 'Delete a ticket permanently.',
  agentDescription:
    'PERMANENTLY deletes a ticket and its conversation; it cannot be restored through this step. Only use when the user explicitly asked to delete this ticket; to close a ticket, use Update Ticket with status solved instead.',
  keywords: ['delete ticket', 'remove ticket', 'destroy', 'permanent'],
  get input() {
    return z.strictObject({ ticket_id: TicketId() });
  },
  options: { ticket_id: ticketOptions },
  get output() {
    return z.object({
      deleted: z.literal(true).describe('Always true: failures are errors.'),
      ticket_id: z.number().describe('The deleted ticket id.'),
      already_done: z
        .boolean()
        .describe(
          'True when a retried delete found the ticket already gone: our earlier attempt deleted it.',
        ),
    });
  },
  access: 'destructive',
  idempotent: true,
  // The first DELETE may have landed before its answer was lost: a 404 on the replay is our own work.
  replay: {
    mode: 'gone_means_done',
    alreadyDone: (input) => ({ deleted: true as const, ticket_id: input.ticket_id, already_done: true }),
  },
  variables: { ticket_id: '$.ticket_id' },
  examples: [{ title: 'Delete ticket 3 for good', input: { ticket_id: 3 } }],
  async run(input, { http }) {
    await http.request({ method: 'DELETE', path: ticketingPath('ticket', input.ticket_id) });
    return { deleted: true as const, ticket_id: input.ticket_id, already_done: false };
  },
});
