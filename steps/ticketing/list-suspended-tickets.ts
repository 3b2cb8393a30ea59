import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { ticketingPath } from './lib/paths.js';
import { SuspendedTicket } from './lib/suspended-schema.js';

export default defineStep({
  id: 'ticketing.list_suspended_tickets',
  integration: ticketing,
  title: 'List Suspended Tickets',
  description: 'List the emails held back as suspended tickets (spam, auto-replies...), with the cause.',
  agentDescription:
    'Lists suspended tickets: incoming emails the provider held back instead of making tickets (spam, automated replies, unknown senders), each with its cause, sender and content, one page at a time. Pass next_cursor back as cursor. Recover Suspended Ticket makes a ticket of one; Delete Suspended Ticket discards it. Read-only and safe to retry.',
  keywords: ['suspended tickets', 'spam', 'held emails', 'quarantine', 'list'],
  get input() {
    return z.strictObject(CursorPaging());
  },
  get output() {
    return pagedOutput('suspended_tickets', SuspendedTicket(), 'suspended tickets');
  },
  access: 'read',
  idempotent: true,
  variables: { suspended_ticket_ids: '$.suspended_tickets[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'The first suspended tickets', input: { limit: 10 } }],
  async run(input, { http }) {
    const path = ticketingPath('suspendedTickets');
    return listCursorPage(http, { path, member: 'suspended_tickets', item: SuspendedTicket() }, input);
  },
});
