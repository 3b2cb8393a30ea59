import * as z from 'zod';
import { defineTrigger } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import { ticketEventExample, ticketEventSchema, ticketVariables, ValueChange } from './lib/ticket-event.js';

/** The provider's name for an assignment: the ticket's agent changed. */
const EVENT_TYPE = 'ticket.agent_assignment_changed';

export default defineTrigger({
  id: 'ticketing.ticket_assigned',
  integration: ticketing,
  title: 'Ticket assigned to an agent',
  description: 'Starts the agent when a ticket is assigned (or reassigned) to an agent.',
  agentDescription:
    'Fires once per assignment change. `assignee` is the new agent id (null when unassigned), `previous_assignee` the old one.',
  keywords: ['assigned', 'assignee', 'agent', 'reassigned', 'zendesk'],
  get event() {
    return ticketEventSchema(EVENT_TYPE, ValueChange(z.union([z.string(), z.number()])));
  },
  variables: { ...ticketVariables, assignee: '$.event.current', previous_assignee: '$.event.previous' },
  get setup() {
    return z
      .object({
        include_unassigned: z
          .boolean()
          .default(false)
          .describe('Also start the agent when a ticket loses its assignee.'),
      })
      .strict();
  },
  ...ticketEventDelivery(EVENT_TYPE),
  skipReason: (event, setup) =>
    event.event.current === null || event.event.current === undefined
      ? setup.include_unassigned
        ? undefined
        : 'the ticket was unassigned'
      : undefined,
  example: ticketEventExample(EVENT_TYPE, { previous: null, current: '8447388090111' }),
});
