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

/** Macros: listed, read, and what one would do to a ticket. */
export function macroRoutes(router: Router<TicketingCaller>): void {
  for (const suffix of ['.json', '']) {
    router
      .on('GET', `/api/v2/macros/active${suffix}`, listMacros(true))
      .on('GET', `/api/v2/macros${suffix}`, listMacros(false))
      .on('GET', `/api/v2/macros/:id${suffix}`, showMacro)
      .on('GET', `/api/v2/tickets/:ticketId/macros/:id/apply${suffix}`, applyToTicket);
  }
}
