import * as z from 'zod';
import { builtOnce, defineStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';
import { ticketingPath } from './lib/paths.js';
import { Ticket } from './lib/ticket-schema.js';

/** The provider serves at most 1,000 search results, 100 per page (page 11 is a 422). */
export const SEARCH_RESULT_CAP = 1000;
const PAGE_SIZE_CAP = 100;

const SearchPage = builtOnce(() =>
  z.object({
    results: z.array(z.object({ result_type: z.string().optional() }).loose()),
    count: z.number().int(),
    next_page: z.string().nullable().optional(),
  }),
);

export default defineStep({
  id: 'ticketing.search_tickets',
  integration: ticketing,
  title: 'Search Tickets',
  description:
    'Find tickets with the provider\'s search language, e.g. status:open priority>normal tags:billing "refund".',
  agentDescription:
    'Searches tickets with key:value terms (status:, priority:, ticket_type:, assignee:, requester:, tags:, created>, created<), free text, "quoted phrases" and -negation. Returns up to limit tickets (max 1,000, the provider cap); count is the true total and truncated says when results were cut. For exhaustive filtered lists use List Tickets, which pages without a cap. Read-only and safe to retry.',
  keywords: ['search', 'find tickets', 'query', 'lookup'],
  get input() {
    return z.strictObject({
      query: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('Search terms in the provider query language; type:ticket is added when absent.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(SEARCH_RESULT_CAP)
        .default(100)
        .describe('Most tickets to return, 1 to 1,000.'),
      sort_by: z
        .enum(['created_at', 'updated_at', 'priority', 'status', 'ticket_type'])
        .optional()
        .describe('Sort field.'),
      sort_order: z.enum(['asc', 'desc']).optional().describe('Sort direction.'),
    });
  },
  get output() {
    return z.object({
      tickets: z.array(Ticket()).describe('Matching tickets, up to limit.'),
      count: z.number().int().describe('How many tickets match in all, as the provider counts them.'),
      returned: z.number().int().describe('How many tickets this result holds.'),
      truncated: z.boolean().describe('True when more tickets match than were returned.'),
      truncated_reason: z
        .enum(['limit', 'provider_cap'])
        .nullable()
        .describe(
          'limit: raise limit to see more; provider_cap: more than 1,000 match, narrow the query or use List Tickets.',
        ),
    });
  },
  access: 'read',
  idempotent: true,
  variables: { ticket_ids: '$.tickets[*].id', count: '$.count', truncated: '$.truncated' },
  examples: [
    {
      title: 'Open tickets above normal priority',
      input: { query: 'status:open priority>normal', limit: 20 },
    },
  ],
  async run(input, { http, progress }) {
    const query = /(^|\s)-?type:/.test(input.query) ? input.query : `type:ticket ${input.query}`;
    const perPage = Math.min(PAGE_SIZE_CAP, input.limit);
    const tickets: Ticket[] = [];
    let count = 0;
    for (let page = 1; (page - 1) * perPage < SEARCH_RESULT_CAP; page += 1) {
      const response = await http.request({
        method: 'GET',
        path: ticketingPath('search'),
        query: {
          query,
          page,
          per_page: perPage,
          // Undefined query values are not sent.
          sort_by: input.sort_by,
          sort_order: input.sort_order,
        },
      });
      const body = SearchPage().parse(response.body);
      count = body.count;
      for (const result of body.results) {
        if (result.result_type && result.result_type !== 'ticket') continue;
        tickets.push(Ticket().parse(result));
      }
      // Pages of a long search: a terminal shows how many of the wanted tickets are in.
      const wanted = Math.min(input.limit, count, SEARCH_RESULT_CAP);
      const pages = Math.max(page, Math.ceil(wanted / perPage));
      progress(page, pages, { done: Math.min(tickets.length, wanted), total: wanted });
      if (tickets.length >= input.limit || !body.next_page) break;
    }
    const returned = Math.min(tickets.length, input.limit);
    const truncated = count > returned;
    return {
      tickets: tickets.slice(0, input.limit),
      count,
      returned,
      truncated,
      truncated_reason: !truncated
        ? null
        : input.limit < SEARCH_RESULT_CAP && returned >= input.limit
          ? ('limit' as const)
          : ('provider_cap' as const),
    };
  },
});
