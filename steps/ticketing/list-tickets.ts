import * as z from 'zod';
import { builtOnce, cursorPageOutput, defineStep, earlierMajor } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { IsoDate, ListTicketsInputMajor1, upgradeListTicketsInput } from './lib/list-tickets-major-1.js';
import { ticketingPath } from './lib/paths.js';
import { Assignee, Ticket, TicketPriority, TicketStatus } from './lib/ticket-schema.js';

/**
 * The tickets pass through unchecked here: the output schema checks each one
 * (and drops fields it does not name) as the runtime validates every output,
 * and checking them here as well would read every ticket twice.
 */
const UncheckedTicket = builtOnce(() => z.custom<z.input<ReturnType<typeof Ticket>>>());

const CursorPage = builtOnce(() =>
  z.object({
    tickets: z.array(UncheckedTicket()).optional(),
    results: z.array(UncheckedTicket()).optional(),
    meta: z.object({ has_more: z.boolean(), after_cursor: z.string().nullable().optional() }),
  }),
);

/** The creation range as one value: its two ends are checked against each other where they sit. */
const CreatedRange = builtOnce(() =>
  z
    .strictObject({
      after: IsoDate().optional().describe('Only tickets created after this date (ISO 8601).'),
      before: IsoDate().optional().describe('Only tickets created before this date (ISO 8601).'),
    })
    .refine((range) => !range.after || !range.before || range.after < range.before, {
      path: ['before'],
      message: 'before must be later than after',
    }),
);

const ListTicketsInput = builtOnce(() =>
  z.strictObject({
    status: TicketStatus().optional(),
    priority: TicketPriority().optional(),
    assignee: Assignee().optional(),
    created: CreatedRange()
      .optional()
      .describe('Only tickets created within this range (either end may be left open).'),
    limit: z.number().int().min(1).max(100).default(25).describe('Tickets per page, 1 to 100.'),
    cursor: z.string().min(1).max(2000).optional().describe('next_cursor from the previous page.'),
  }),
);

const ListTicketsOutput = builtOnce(() =>
  cursorPageOutput('tickets', Ticket(), { items: 'This page of tickets.' }),
);

const VARIABLES = { ticket_ids: '$.tickets[*].id', next_cursor: '$.next_cursor' };

export default defineStep({
  id: 'ticketing.list_tickets',
  integration: ticketing,
  version: '2.0',
  changelog: {
    '1.0': 'First version: created_after and created_before as two top-level fields.',
    '2.0': 'The creation range is one `created: { after, before }` object; major 1 is served by migration.',
  },
  earlier: [
    earlierMajor(
      {
        get input() {
          return ListTicketsInput();
        },
        get output() {
          return ListTicketsOutput();
        },
      },
      {
        version: '1.0',
        get input() {
          return ListTicketsInputMajor1();
        },
        // The output did not change: major 1's mappings read the same paths.
        get output() {
          return ListTicketsOutput();
        },
        variables: VARIABLES,
        deprecated: { replacement: 'ticketing.list_tickets@2', endsOn: '2027-06-30' },
        changelog: { '1.0': 'First version: created_after and created_before as two top-level fields.' },
        examples: [{ title: 'Open tickets, ten per page', input: { status: 'open', limit: 10 } }],
        upgradeInput: upgradeListTicketsInput,
        downgradeOutput: (output) => output,
      },
    ),
  ],
  title: 'List Tickets',
  description:
    'List tickets, newest pages first, optionally filtered by status, priority, assignee and creation date.',
  agentDescription:
    'Lists tickets one page at a time. Pass the returned next_cursor back as cursor (with the same filters) to get the next page; has_more says whether there is one. Filters are exact; for free text use Search Tickets. Read-only and safe to retry.',
  keywords: ['tickets', 'list', 'browse', 'queue', 'open tickets', 'filter'],
  get input() {
    return ListTicketsInput();
  },
  get output() {
    return ListTicketsOutput();
  },
  access: 'read',
  idempotent: true,
  variables: VARIABLES,
  examples: [{ title: 'Open tickets, ten per page', input: { status: 'open', limit: 10 } }],
  async run(input, { http }) {
    const terms = [
      input.status && `status:${input.status}`,
      input.priority && `priority:${input.priority}`,
      input.assignee !== undefined && `assignee:${input.assignee}`,
      input.created?.after && `created>${input.created.after}`,
      input.created?.before && `created<${input.created.before}`,
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
    const page = CursorPage().parse(response.body);
    return {
      tickets: page.tickets ?? page.results ?? [],
      has_more: page.meta.has_more,
      next_cursor: page.meta.has_more ? (page.meta.after_cursor ?? null) : null,
    };
  },
});
