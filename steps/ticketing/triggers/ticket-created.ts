import * as z from 'zod';
import { defineTrigger } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import {
  ticketEventExample,
  ticketEventSchema,
  ticketPriorities,
  ticketVariables,
} from './lib/ticket-event.js';
import { onlyValues, skipUnlessListed } from './lib/value-filter.js';

const EVENT_TYPE = 'ticket.created';

export default defineTrigger({
  id: 'ticketing.ticket_created',
  integration: ticketing,
  title: 'Ticket created',
  description: 'Starts the agent when a new ticket is created.',
  agentDescription:
    'Fires once per new ticket. Variables hold the ticket id, subject, description, requester, priority, status and assignee at creation.',
  keywords: ['new ticket', 'ticket created', 'support request', 'zendesk'],
  get event() {
    return ticketEventSchema(
      EVENT_TYPE,
      z.object({}).loose().describe('Nothing changed yet: the ticket is new.'),
    );
  },
  variables: ticketVariables,
  get setup() {
    return z
      .object({
        priorities: onlyValues(
          ticketPriorities,
          'Only tickets created with one of these priorities; omit for every ticket.',
        ),
      })
      .strict();
  },
  ...ticketEventDelivery(EVENT_TYPE),
  skipReason: (event, setup) => skipUnlessListed('priority', event.detail.priority, setup.priorities),
  example: ticketEventExample(EVENT_TYPE, {}),
});
