import { defineTrigger } from '../../../src/kit/index.js';
import { ticketValueChange } from './lib/value-change-trigger.js';

export default defineTrigger(
  ticketValueChange('priority', {
    id: 'ticketing.ticket_priority_changed',
    title: 'Ticket priority changed',
    description: 'Starts the agent when the priority of a ticket changes.',
    agentDescription:
      'Fires once per priority change. `priority` is the new priority (null when cleared) and `previous_priority` the old one.',
    keywords: ['priority', 'urgent', 'escalation', 'ticket updated', 'zendesk'],
    filterDescription: 'Only changes into one of these priorities, e.g. ["urgent"]; omit for every change.',
    example: { previous: 'NORMAL', current: 'HIGH' },
  }),
);
