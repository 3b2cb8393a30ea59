import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { offsetPage } from './directory-routes.js';
import {
  PRIORITIES,
  STATUSES,
  type TicketRecord,
  type ViewCondition,
  type ViewRecord,
} from './ticketing-state.js';
import {
  cursorPage,
  NOT_FOUND,
  publicTicket,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

/** Where a status or priority stands in the provider's order, for less_than and greater_than. */
function rank(field: ViewCondition['field'], value: string | number | null): number {
  if (field === 'status') return STATUSES.indexOf(value as (typeof STATUSES)[number]);
  if (field === 'priority') return PRIORITIES.indexOf(value as (typeof PRIORITIES)[number]);
  return Number(value);
}

/** Whether a ticket meets one condition, for the fields and operators the seeded views use. */
function meets(ticket: TicketRecord, condition: ViewCondition): boolean {
  const actual = ticket[condition.field];
  switch (condition.operator) {
    case 'is':
      return String(actual) === condition.value;
    case 'is_not':
      return String(actual) !== condition.value;
    case 'less_than':
      return actual !== null && rank(condition.field, actual) < rank(condition.field, condition.value);
    case 'greater_than':
      return actual !== null && rank(condition.field, actual) > rank(condition.field, condition.value);
  }
}

function inView(view: ViewRecord, ticket: TicketRecord): boolean {
  const { all, any } = view.conditions;
  return (
    all.every((condition) => meets(ticket, condition)) &&
    (any.length === 0 || any.some((c) => meets(ticket, c)))
  );
}

/** The active views in position order, offset-paged as the provider pages them (100 at most). */
function listActiveViews(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const views = [...account.views.values()]
    .filter((view) => view.active)
    .sort((a, b) => a.position - b.position)
    .map((view) => ({ ...view, url: `${base}/api/v2/views/${view.id}.json` }));
  return offsetPage(request, views, 'views');
}

/** The tickets a view matches, paged by cursor (or by offset when `page` is asked), in the view's order. */
function listViewTickets(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const view = account.views.get(Number(request.params.id));
  if (!view) return json(404, NOT_FOUND);
  const tickets = [...account.tickets.values()].filter((ticket) => inView(view, ticket));
  const descending = view.execution.sort.order === 'desc';
  return cursorPage(request, tickets, 'tickets', (ticket) => publicTicket(ticket, base), 100, descending);
}

/** Views: the active list and the tickets of one (`views/active` before `views/:id` would take it as an id). */
export function viewRoutes(router: Router<TicketingCaller>): void {
  for (const suffix of ['.json', '']) {
    router
      .on('GET', `/api/v2/views/active${suffix}`, listActiveViews)
      .on('GET', `/api/v2/views/:id/tickets${suffix}`, listViewTickets);
  }
}
