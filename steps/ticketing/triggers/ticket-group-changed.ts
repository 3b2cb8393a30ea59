import * as z from 'zod';
import { defineTrigger } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import { ticketEventExample, ticketEventSchema, ticketVariables, ValueChange } from './lib/ticket-event.js';
import { skipUnlessListed } from './lib/value-filter.js';

/** The provider's name for a ticket moving to another group of agents. */
const EVENT_TYPE = 'ticket.group_assignment_changed';

export default defineTrigger({
  id: 'ticketing.ticket_group_changed',
  integration: ticketing,
  title: 'Ticket moved to a group',
  description: 'Starts the agent when a ticket is assigned (or moved) to another group of agents.',
  agentDescription:
    'Fires once per group change (routing, escalation to another team). `group` is the new group id (null when cleared), `previous_group` the old one; List Groups or Get Group names them.',
  keywords: ['group', 'team', 'routed', 'escalated', 'queue', 'reassigned', 'zendesk'],
  get event() {
    return ticketEventSchema(EVENT_TYPE, ValueChange(z.union([z.string(), z.number()])));
  },
  variables: { ...ticketVariables, group: '$.event.current', previous_group: '$.event.previous' },
  get setup() {
    return z
      .object({
        to_groups: z
          .array(z.number().int().positive())
          .min(1)
          .max(100)
          .optional()
          .describe(
            'Only moves into one of these groups (ids, as List Groups gives them); omit for every move.',
          ),
      })
      .strict();
  },
  ...ticketEventDelivery(EVENT_TYPE),
  skipReason: (event, setup) => skipUnlessListed('group', event.event.current, setup.to_groups?.map(String)),
  example: ticketEventExample(EVENT_TYPE, { previous: '360001', current: '360003' }),
});
