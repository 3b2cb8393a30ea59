import type { Router } from '../router.js';
import { json, type Reply, type SandboxRequest } from '../sandbox-http.js';
import { parseSearchQuery, resultTypeOf, ticketMatches } from './search-query.js';
import { PRIORITIES, STATUSES, type TicketRecord } from './ticketing-state.js';
import {
  cursorPage,
  pageLink,
  publicTicket,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

const SEARCH_CAP = 1000;

function matching(request: SandboxRequest, caller: TicketingCaller): TicketRecord[] {
  const terms = parseSearchQuery(request.query.get('query') ?? '');
  const type = resultTypeOf(terms) ?? 'ticket';
  if (type !== 'ticket') return [];
  return [...caller.account.tickets.values()].filter((ticket) =>
    ticketMatches(caller.account, ticket, terms, caller.userId),
  );
}

/** Offset-paged search with the query language; 422 past the 1,000-result cap. */
function search(request: TicketingRequest): Reply {
  const caller = request.caller;
  const query = request.query.get('query');
  if (!query) return json(400, { error: 'InvalidValue', description: 'query is required' });
  const page = Math.max(1, Number(request.query.get('page') ?? '1'));
  const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? '100')));
  if (page * perPage > SEARCH_CAP) {
    return json(422, {
      error: 'invalid',
      description: 'Invalid search: Requested response size was greater than Search Response Limits',
    });
  }
  let matched = matching(request, caller);
  const sortBy = request.query.get('sort_by');
  const descending = request.query.get('sort_order') !== 'asc';
  if (sortBy) {
    const rank = (ticket: TicketRecord): string | number => {
      if (sortBy === 'priority') return PRIORITIES.indexOf(ticket.priority ?? 'low');
      if (sortBy === 'status') return STATUSES.indexOf(ticket.status);
      if (sortBy === 'ticket_type') return ticket.type ?? '';
      return sortBy === 'updated_at' ? ticket.updated_at : ticket.created_at;
    };
    matched = matched.sort((a, b) => {
      const left = rank(a);
      const right = rank(b);
      const order = left < right ? -1 : left > right ? 1 : a.id - b.id;
      return descending ? -order : order;
    });
  }
  const slice = matched.slice((page - 1) * perPage, page * perPage);
  const more = page * perPage < Math.min(matched.length, SEARCH_CAP);
  const perPageKept = { per_page: String(perPage) };
  return json(200, {
    results: slice.map((ticket) => ({ ...publicTicket(ticket, caller.base), result_type: 'ticket' })),
    count: matched.length,
    next_page: more ? pageLink(request, { page: String(page + 1), ...perPageKept }) : null,
    previous_page: page > 1 ? pageLink(request, { page: String(page - 1), ...perPageKept }) : null,
    facets: null,
  });
}

/** The export: cursor-paged, no result cap, needs `filter[type]`. */
function searchExport(request: TicketingRequest): Reply {
  const caller = request.caller;
  if (!request.query.get('filter[type]')) {
    return json(400, { error: 'InvalidValue', description: 'filter[type] is required for search export' });
  }
  // The provider's description: "Searches with type in the query string will result in an error."
  if (resultTypeOf(parseSearchQuery(request.query.get('query') ?? '')) !== undefined) {
    return json(400, {
      error: 'InvalidValue',
      description: 'The export takes the record type in filter[type], not as type: in the query',
    });
  }
  const tickets = matching(request, caller);
  const reply = cursorPage(
    request,
    tickets,
    'results',
    (ticket) => ({ ...publicTicket(ticket, caller.base), result_type: 'ticket' }),
    1000,
  );
  return reply;
}

/** Search and the search export (with and without `.json`). */
export function searchRoutes(router: Router<TicketingCaller>): void {
  router
    .on('GET', '/api/v2/search.json', search)
    .on('GET', ['/api/v2/search/export.json', '/api/v2/search/export'], searchExport);
}
