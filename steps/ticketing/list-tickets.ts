import * as z from 'zod';
import { cursorPageOutput, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { Assignee, Ticket, TicketPriority, TicketStatus } from './lib/ticket-schema.js';

const IsoDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'an ISO 8601 date or date-time',
  );

/**
 * The tickets pass through unchecked here: the output schema checks each one
 * (and drops fields it does not name) as the runtime validates every output,
 * and checking them here as well would read every ticket twice.
 */
const UncheckedTicket = z.custom<z.input<typeof Ticket>>();

const CursorPage = z.object({
  tickets: z.array(UncheckedTicket).optional(),
  results: z.array(UncheckedTicket).optional(),
  meta: z.object({ has_more: z.boolean(), after_cursor: z.string().nullable().optional() }),
});

export default defineStep({
  id: 'ticketing.list_tickets',
  integration: ticketing,
  title: 'List Tickets',
  description:
    'List tickets, newest pages first, optionally filtered by status, priority, assignee and creation date.',
  agentDescription:
    'Lists tickets one page at a time. Pass the returned next_cursor back as cursor (with the same filters) to get the next page; has_more says whether there is one. Filters are exact; for free text use Search Tickets. Read-only and safe to retry.',
  keywords: ['tickets', 'list', 'browse', 'queue', 'open tickets', 'filter'],
  get input() {
    return z
      .strictObject({
        status: TicketStatus.optional(),
        priority: TicketPriority.optional(),
        assignee: Assignee.optional(),
        created_after: IsoDate.optional().describe('Only tickets created after this date (ISO 8601).'),
        created_before: IsoDate.optional().describe('Only tickets created before this date (ISO 8601).'),
        limit: z.number().int().min(1).max(100).default(25).describe('Tickets per page, 1 to 100.'),
        cursor: z.string().min(1).max(2000).optional().describe('next_cursor from the previous page.'),
      })
      .refine(
        (value) =>
          !value.created_after || !value.created_before || value.created_after < value.created_before,
        { path: ['created_before'], message: 'created_before must be later than created_after' },
      );
  },
  get output() {
    return cursorPageOutput('tickets', Ticket, { items: 'This page of tickets.' });
  },
  access: 'read',
  idempotent: true,
  variables: { ticket_ids: '$.tickets[*].id', next_cursor: '$.next_cursor' },
  examples: [{ title: 'Open tickets, ten per page', input: { status: 'open', limit: 10 } }],
  async run(input, { http }) {
    const terms = [
      input.status && `status:${input.status}`,
      input.priority && `priority:${input.priority}`,
      input.assignee !== undefined && `assignee:${input.assignee}`,
      input.created_after && `created>${input.created_after}`,
      input.created_before && `created<${input.created_before}`,
    ].filter((term): term is string => Boolean(term));
    // An undefined query value is not sent.
    const paging = { 'page[size]': input.limit, 'page[after]': input.cursor || undefined };
    // The plain list cannot filter; filtered lists go through the cursor-paged
    // search export, which has no 1,000-result cap.
    const response = terms.length
      ? await http.request({
          method: 'GET',
          path: ticketingPath('searchExport'),
          // The record type goes in filter[type] only: the provider refuses `type:` in an export query.
          query: { query: terms.join(' '), 'filter[type]': 'ticket', ...paging },
        })
      : await http.request({ method: 'GET', path: ticketingPath('tickets'), query: paging });
    const page = CursorPage.parse(response.body);
    return {
      tickets: page.tickets ?? page.results ?? [],
      has_more: page.meta.has_more,
      next_cursor: page.meta.has_more ? (page.meta.after_cursor ?? null) : null,
    };
  },
});
