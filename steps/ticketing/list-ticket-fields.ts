import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { CursorPaging, listCursorPage, pagedOutput } from './lib/cursor-list.js';
import { TicketField } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';

export default defineStep({
  id: 'ticketing.list_ticket_fields',
  integration: ticketing,
  title: 'List Ticket Fields',
  description: "List the account's ticket fields, system and custom, with their choices.",
  agentDescription:
    "Lists the ticket fields (subject, status, and custom fields such as Product area) with their ids, types and dropdown choices: what a ticket's custom_fields refer to. One page at a time, in id order; pass next_cursor back as cursor. Read-only and safe to retry.",
  keywords: ['ticket fields', 'custom fields', 'form fields', 'dropdown values', 'field ids'],
  get input() {
    return z.strictObject(CursorPaging());
  },
  get output() {
    return pagedOutput('ticket_fields', TicketField(), 'ticket fields');
  },
  access: 'read',
  idempotent: true,
  variables: { ticket_field_ids: '$.ticket_fields[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'The first fields', input: { limit: 25 } }],
  async run(input, { http }) {
    return listCursorPage(
      http,
      { path: ticketingPath('ticketFields'), member: 'ticket_fields', item: TicketField() },
      input,
    );
  },
});
