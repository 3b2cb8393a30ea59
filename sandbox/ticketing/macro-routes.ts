import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { offsetPage } from './directory-routes.js';
import type { MacroRecord } from './ticketing-state.js';
import { cursorPage, NOT_FOUND, type TicketingCaller, type TicketingRequest } from './ticketing-wire.js';

const withUrl = (macro: MacroRecord, base: string) => ({
  ...macro,
  url: `${base}/api/v2/macros/${macro.id}.json`,
});

/** Macros in position order, offset-paged; `active` filters, and `active` the path means active only. */
function listMacros(onlyActive: boolean) {
  return (request: TicketingRequest): Reply => {
    const { account, base } = request.caller;
    const active = onlyActive ? 'true' : request.query.get('active');
    const macros = [...account.macros.values()]
      .filter((macro) => active === null || String(macro.active) === active)
      .sort((a, b) => a.position - b.position)
      .map((macro) => withUrl(macro, base));
    // Cursor paging when asked (`page[size]`, as the provider's Node client asks), offset otherwise.
    if (request.query.has('page[size]')) return cursorPage(request, macros, 'macros', (macro) => macro, 100);
    return offsetPage(request, macros, 'macros');
  };
}

/** The orders `sort_by` names; alphabetical (by title) is the default, and ascending for it and position. */
const MACRO_ORDERS: Record<string, (a: MacroRecord, b: MacroRecord) => number> = {
  alphabetical: (a, b) => a.title.localeCompare(b.title),
  position: (a, b) => a.position - b.position,
  created_at: (a, b) => a.created_at.localeCompare(b.created_at),
  updated_at: (a, b) => a.updated_at.localeCompare(b.updated_at),
};

/**
 * `GET /api/v2/macros/search`: macros whose title holds every word of
 * `query` (case-blind), `active` filtering as in the list, sorted by
 * `sort_by` and `sort_order`, offset-paged (the only paging it has).
 */
function searchMacros(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const words = (request.query.get('query') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return json(400, { error: 'InvalidValue', description: 'query is required' });
  const active = request.query.get('active');
  const sortBy = request.query.get('sort_by') ?? 'alphabetical';
  const order = MACRO_ORDERS[sortBy];
  if (!order) return json(400, { error: 'InvalidValue', description: `sort_by ${sortBy} is not valid` });
  const ascending =
    (request.query.get('sort_order') ??
      (sortBy === 'alphabetical' || sortBy === 'position' ? 'asc' : 'desc')) === 'asc';
  const macros = [...account.macros.values()]
    .filter((macro) => active === null || String(macro.active) === active)
    .filter((macro) => words.every((word) => macro.title.toLowerCase().includes(word)))
    .sort((a, b) => (ascending ? order(a, b) : order(b, a)))
    .map((macro) => withUrl(macro, base));
  return offsetPage(request, macros, 'macros');
}

/** `GET /api/v2/macros/categories`: the categories the macros' titles name (`Category::Name`), each once, sorted. */
function listMacroCategories(request: TicketingRequest): Reply {
  const categories = new Set<string>();
  for (const macro of request.caller.account.macros.values()) {
    const at = macro.title.indexOf('::');
    if (at > 0) categories.add(macro.title.slice(0, at).trim());
  }
  return json(200, { categories: [...categories].sort() });
}

function showMacro(request: TicketingRequest): Reply {
  const { account, base } = request.caller;
  const macro = account.macros.get(Number(request.params.id));
  if (!macro) return json(404, NOT_FOUND);
  return json(200, { macro: withUrl(macro, base) });
}

/**
 * What the macro would change on the ticket, nothing saved
 * (`{"result": {"ticket": {...}}}`): the fields its actions set, with
 * `current_user` as the caller, and its comment as `comment`.
 */
function applyToTicket(request: TicketingRequest): Reply {
  const { account, base, userId } = request.caller;
  const ticket = account.tickets.get(Number(request.params.ticketId));
  const macro = account.macros.get(Number(request.params.id));
  if (!ticket || !macro) return json(404, NOT_FOUND);
  const changes: Record<string, unknown> = { id: ticket.id, url: `${base}/api/v2/tickets/${ticket.id}.json` };
  for (const action of macro.actions) {
    if (action.field === 'comment_value') changes.comment = { body: action.value, public: true };
    else if (action.field === 'assignee_id' || action.field === 'group_id')
      changes[action.field] = action.value === 'current_user' ? userId : Number(action.value);
    else changes[action.field] = action.value;
  }
  return json(200, { result: { ticket: changes } });
}

/** Macros: listed, searched, their categories, read, and what one would do to a ticket (`search` and `categories` before `:id`). */
export function macroRoutes(router: Router<TicketingCaller>): void {
  for (const suffix of ['.json', '']) {
    router
      .on('GET', `/api/v2/macros/active${suffix}`, listMacros(true))
      .on('GET', `/api/v2/macros${suffix}`, listMacros(false))
      .on('GET', `/api/v2/macros/search${suffix}`, searchMacros)
      .on('GET', `/api/v2/macros/categories${suffix}`, listMacroCategories)
      .on('GET', `/api/v2/macros/:id${suffix}`, showMacro)
      .on('GET', `/api/v2/tickets/:ticketId/macros/:id/apply${suffix}`, applyToTicket);
  }
}
