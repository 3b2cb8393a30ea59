import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { readOffsetPage, TicketForm } from './lib/directory-schema.js';
import { ticketingPath } from './lib/paths.js';

export default defineStep({
  id: 'ticketing.list_ticket_forms',
  integration: ticketing,
  title: 'List Ticket Forms',
  description: "List the account's ticket forms and the fields each shows.",
  agentDescription:
    'Lists the ticket forms (e.g. Default, Refund request) with the ids of the fields each shows; a ticket takes a form id as ticket_form_id. 100 per page; pass next_page back as page. Read-only and safe to retry.',
  keywords: ['ticket forms', 'forms', 'form fields', 'request types'],
  get input() {
    return z.strictObject({
      page: z.number().int().min(1).max(100).default(1).describe('Page number, from next_page.'),
      active_only: z.boolean().default(true).describe('False to include forms switched off.'),
    });
  },
  get output() {
    return z.object({
      ticket_forms: z.array(TicketForm()).describe('The forms of this page.'),
      next_page: z.number().nullable().describe('The next page number, or null on the last page.'),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { ticket_form_ids: '$.ticket_forms[*].id' },
  examples: [{ title: 'The active forms', input: {} }],
  async run(input, { http }) {
    const path = ticketingPath('ticketForms');
    const page = await readOffsetPage(http, {
      path,
      member: 'ticket_forms',
      item: TicketForm(),
      page: input.page,
    });
    const forms = input.active_only ? page.items.filter((form) => form.active !== false) : page.items;
    return { ticket_forms: forms, next_page: page.next_page };
  },
});
