import * as z from 'zod';
import { defineTrigger } from '../../../src/kit/index.js';
import { ticketing } from '../integration.js';
import { ticketEventDelivery } from './lib/event-delivery.js';
import { ChangeList, changeEventTypes, changeNameOf, TicketUpdate } from './lib/ticket-changes.js';
import { anyTicketEventSchema, ticketEventExample, ticketVariables } from './lib/ticket-event.js';

export default defineTrigger({
  id: 'ticketing.ticket_updated',
  integration: ticketing,
  title: 'Ticket updated',
  description:
    'Starts the agent on any change to a ticket (status, priority, assignee, group, subject, tags, a comment...), with what changed.',
  agentDescription:
    'Fires once per change: one update that changes two fields fires twice, and those events share `update_id`. `change` is the provider event type saying what changed (e.g. zen:event-type:ticket.tags_changed); `previous_value` and `current_value` are the values around it when the change has them; the other variables describe the ticket after the update.',
  keywords: ['ticket updated', 'ticket changed', 'any change', 'modified', 'edited', 'zendesk'],
  get event() {
    return anyTicketEventSchema(changeEventTypes(undefined), TicketUpdate());
  },
  variables: {
    ...ticketVariables,
    change: '$.type',
    previous_value: '$.event.previous',
    current_value: '$.event.current',
    update_id: '$.event.meta.sequence.id',
    changed_at: '$.time',
  },
  get setup() {
    return z.object({ changes: ChangeList() }).strict();
  },
  ...ticketEventDelivery(
    'ticket changes',
    undefined,
    (setup: { changes?: Parameters<typeof changeEventTypes>[0] }) => changeEventTypes(setup.changes),
  ),
  skipReason: (event, setup) => {
    const name = changeNameOf(event.type);
    return setup.changes && (!name || !setup.changes.includes(name))
      ? `${name ?? event.type} is not one of ${setup.changes.join(', ')}`
      : undefined;
  },
  example: ticketEventExample('ticket.tags_changed', {
    tags_added: ['vip'],
    tags_removed: [],
    meta: { sequence: { id: '7F1C0A2B9E4D4C1A8B3E5D6F7A8B9C0D', position: 1, total: 1 } },
  }),
});
