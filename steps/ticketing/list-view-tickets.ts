import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { ticketingPath } from './lib/paths.js';
import { Ticket } from './lib/ticket-schema.js';
import { viewOptions } from './lib/ticketing-options.js';
import { ViewId } from './lib/view-schema.js';

export default defineStep({
  id: 'ticketing.list_view_tickets',
  integration: ticketing,
  title: 'List Tickets in a View',
  description: 'List the tickets a view shows, one page at a time, in the view’s order.',
  agentDescription:
    "Lists the tickets a view (a saved filter from List Views) matches now, in the view's own order, one page at a time. Pass next_cursor back as cursor for the next page. An unknown view is NotFoundError. Read-only and safe to retry.",
  keywords: ['view', 'view tickets', 'queue', 'saved filter', 'tickets'],
  get input() {
    return z.strictObject({ view_id: ViewId(), ...CursorPaging() });
  },
  get output() {
    return pagedOutput('tickets', Ticket(), 'tickets');
  },
  access: 'read',
  idempotent: true,
  options: { view_id: viewOptions },
  variables: { ticket_ids: '$.tickets[*].id', next_cursor: '$.next_cursor' },
  examples: [
    { title: 'The first tickets of view 25001 (Open and new tickets)', input: { view_id: 25001, limit: 10 } },
  ],
  async run(input, { http }) {
    const path = ticketingPath('viewTickets', input.view_id);
    return listCursorPage(http, { path, member: 'tickets', item: Ticket() }, input);
  },
});
