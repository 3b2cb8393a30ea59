import * as z from 'zod';
import { builtOnce, defineStep, readAnswer } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { SuspendedTicketId } from './lib/suspended-schema.js';
import { Ticket } from './lib/ticket-schema.js';
import { suspendedTicketOptions } from './lib/ticketing-options.js';

/** The provider answers the one recovered ticket in a list (RecoverSuspendedTicketResponse). */
const Recovered = builtOnce(() => z.object({ ticket: z.array(Ticket()).length(1) }));

export default defineStep({
  id: 'ticketing.recover_suspended_ticket',
  integration: ticketing,
  title: 'Recover Suspended Ticket',
  description: 'Make a ticket of a suspended email; the connected user becomes its requester.',
  agentDescription:
    'Recovers one suspended ticket: the held-back email becomes a real ticket and leaves the suspended list. The provider makes the connected user the requester (so it is not suspended again). Not repeatable: a second recover of the same id is NotFoundError, and an uncertain failure is not retried (check Search Tickets for the subject first).',
  keywords: ['recover suspended ticket', 'unsuspend', 'release email', 'not spam'],
  get input() {
    return z.strictObject({ suspended_ticket_id: SuspendedTicketId() });
  },
  get output() {
    return z.object({ ticket: Ticket().describe('The ticket made from it.') });
  },
  access: 'write',
  idempotent: false,
  replay: {
    mode: 'refuse',
    hint: (input) =>
      `The suspended ticket may have been recovered already: if List Suspended Tickets no longer has ${input.suspended_ticket_id}, search the tickets for its subject rather than recovering again.`,
  },
  options: { suspended_ticket_id: suspendedTicketOptions },
  variables: { ticket_id: '$.ticket.id' },
  examples: [{ title: 'Recover suspended ticket 8000003', input: { suspended_ticket_id: 8000003 } }],
  async run(input, { http }) {
    const path = ticketingPath('recoverSuspendedTicket', input.suspended_ticket_id);
    // A PUT, but not repeatable: the transport would resend a PUT after a lost answer, and the resend finds it gone.
    const response = await http.request({ method: 'PUT', path, idempotent: false });
    const answer = readAnswer(Recovered(), response.body, `PUT ${path}`);
    return { ticket: answer.ticket[0]! };
  },
});
