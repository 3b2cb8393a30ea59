import { z } from 'zod';
import { defineTrigger } from '../../../src/trigger.js';
import { ticketing } from '../integration.js';
import { changedInto, Delivery } from './lib/business-rule.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import {
  ticketEventExample,
  ticketEventSchema,
  ticketStatuses,
  ticketVariables,
  ValueChange,
} from './lib/ticket-event.js';
import { onlyValues, skipUnlessListed } from './lib/value-filter.js';

const EVENT_TYPE = 'ticket.status_changed';

export default defineTrigger({
  id: 'ticketing.ticket_status_changed',
  integration: ticketing,
  title: 'Ticket status changed',
  description: 'Starts the agent when a ticket moves to another status (open, pending, solved...).',
  agentDescription:
    'Fires once per status change. `status` is the new status and `previous_status` the old one; the other variables describe the ticket.',
  keywords: ['status', 'ticket updated', 'solved', 'pending', 'reopened', 'zendesk'],
  event: ticketEventSchema(EVENT_TYPE, ValueChange(z.string())),
  variables: { ...ticketVariables, status: '$.event.current', previous_status: '$.event.previous' },
  setup: z
    .object({
      to_statuses: onlyValues(
        ticketStatuses,
        'Only changes into one of these statuses; omit for every change.',
      ),
      delivery: Delivery,
    })
    .strict(),
  ...ticketEventDelivery(EVENT_TYPE, {
    field: 'status',
    conditions: (setup: { to_statuses?: string[] }) => changedInto('status', setup.to_statuses),
  }),
  skipReason: (event, setup) => skipUnlessListed('status', event.event.current, setup.to_statuses),
  example: ticketEventExample(EVENT_TYPE, { previous: 'OPEN', current: 'SOLVED' }),
});
