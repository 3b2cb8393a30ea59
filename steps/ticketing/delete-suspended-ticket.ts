import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { deletionOutput, deletionStep } from './lib/deletion.js';
import { ticketingPath } from './lib/paths.js';
import { SuspendedTicketId } from './lib/suspended-schema.js';
import { suspendedTicketOptions } from './lib/ticketing-options.js';

export default defineStep({
  id: 'ticketing.delete_suspended_ticket',
  integration: ticketing,
  title: 'Delete Suspended Ticket',
  description: 'Discard a suspended email permanently, without making a ticket of it.',
  agentDescription:
    'PERMANENTLY discards one suspended ticket (a held-back email): it never becomes a ticket and cannot be recovered afterwards. Only use when the user explicitly asked to discard it (e.g. confirmed spam).',
  keywords: ['delete suspended ticket', 'discard spam', 'remove held email'],
  get input() {
    return z.strictObject({ suspended_ticket_id: SuspendedTicketId() });
  },
  get output() {
    return deletionOutput(
      'suspended_ticket_id',
      'The discarded suspended ticket id.',
      'True when a retried delete found it already gone: our earlier attempt deleted it.',
    );
  },
  ...deletionStep('suspended_ticket_id'),
  options: { suspended_ticket_id: suspendedTicketOptions },
  examples: [{ title: 'Discard suspended ticket 8000002', input: { suspended_ticket_id: 8000002 } }],
  async run(input, { http }) {
    await http.request({
      method: 'DELETE',
      path: ticketingPath('suspendedTicket', input.suspended_ticket_id),
    });
    return { deleted: true as const, suspended_ticket_id: input.suspended_ticket_id, already_done: false };
  },
});
