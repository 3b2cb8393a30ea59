import { z } from 'zod';
import { defineTrigger } from '../../../src/trigger.js';
import { ticketing } from '../integration.js';
import { changedInto, Delivery } from './lib/business-rule.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import {
  ticketEventExample,
  ticketEventSchema,
  ticketPriorities,
  ticketVariables,
  ValueChange,
} from './lib/ticket-event.js';
import { onlyValues, skipUnlessListed } from './lib/value-filter.js';

const EVENT_TYPE = 'ticket.priority_changed';

export default defineTrigger({
  id: 'ticketing.ticket_priority_changed',
  integration: ticketing,
  title: 'Ticket priority changed',
  description: 'Starts the agent when the priority of a ticket changes.',
  agentDescription:
    'Fires once per priority change. `priority` is the new priority (null when cleared) and `previous_priority` the old one.',
  keywords: ['priority', 'urgent', 'escalation', 'ticket updated', 'zendesk'],
  event: ticketEventSchema(EVENT_TYPE, ValueChange(z.string())),
  variables: { ...ticketVariables, priority: '$.event.current', previous_priority: '$.event.previous' },
  setup: z
    .object({
      to_priorities: onlyValues(
        ticketPriorities,
        'Only changes into one of these priorities, e.g. ["urgent"]; omit for every change.',
      ),
      delivery: Delivery,
    })
    .strict(),
  ...ticketEventDelivery(EVENT_TYPE, {
    field: 'priority',
    conditions: (setup: { to_priorities?: string[] }) => changedInto('priority', setup.to_priorities),
  }),
  skipReason: (event, setup) => skipUnlessListed('priority', event.event.current, setup.to_priorities),
  example: ticketEventExample(EVENT_TYPE, { previous: 'NORMAL', current: 'HIGH' }),
});
