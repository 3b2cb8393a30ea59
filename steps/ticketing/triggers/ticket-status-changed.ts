import { defineTrigger } from '../../../src/kit/index.js';
import { ticketValueChange } from './lib/value-change-trigger.js';

export default defineTrigger(
  ticketValueChange('status', {
    id: 'ticketing.ticket_status_changed',
    title: 'Ticket status changed',
    description: 'Starts the agent when a ticket moves to another status (open, pending, solved...).',
    agentDescription:
      'Fires once per status change. `status` is the new status and `previous_status` the old one; the other variables describe the ticket.',
    keywords: ['status', 'ticket updated', 'solved', 'pending', 'reopened', 'zendesk'],
    filterDescription: 'Only changes into one of these statuses; omit for every change.',
    example: { previous: 'OPEN', current: 'SOLVED' },
  }),
);
