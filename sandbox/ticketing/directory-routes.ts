import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import {
  cursorPage,
  NOT_FOUND,
  pageLink,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

/** Offset paging as the provider's autocomplete, tag and view lists page: `page`, `per_page` (at most 100). */
export function offsetPage<T>(request: TicketingRequest, all: T[], member: string): Reply {
  const page = Math.max(1, Number(request.query.get('page') ?? '1') || 1);
  const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? '100') || 100));
  const more = page * perPage < all.length;
  return json(200, {
    [member]: all.slice((page - 1) * perPage, page * perPage),
    count: all.length,
    next_page: more ? pageLink(request, { page: String(page + 1), per_page: String(perPage) }) : null,
    previous_page: page > 1 ? pageLink(request, { page: String(page - 1), per_page: String(perPage) }) : null,
  });
}

/** The `name` a prefix search needs; the provider answers 400 without it. */
function namePrefix(request: TicketingRequest): string | undefined {
  const name = request.query.get('name')?.trim().toLowerCase();
  return name ? name : undefined;
}

const NAME_REQUIRED = json(400, { error: 'InvalidValue', description: 'name is required' });

/** Users whose name (or a word of it) starts with `name`, or whose email does: `GET /api/v2/users/autocomplete`. */
function autocompleteUsers(request: TicketingRequest): Reply {
  const prefix = namePrefix(request);
  if (!prefix) return NAME_REQUIRED;
  const users = [...request.caller.account.users.values()].filter(
    (user) =>
      user.name
        .toLowerCase()
        .split(/\s+/)
        .some((word) => word.startsWith(prefix)) ||
      user.name.toLowerCase().startsWith(prefix) ||
      user.email.toLowerCase().startsWith(prefix),
  );
  return offsetPage(request, users, 'users');
}

/** Organizations whose name starts with `name`: `GET /api/v2/organizations/autocomplete`. */
function autocompleteOrganizations(request: TicketingRequest): Reply {
  const prefix = namePrefix(request);
  if (!prefix) return NAME_REQUIRED;
  const found = [...request.caller.account.organizations.values()].filter((org) =>
    org.name.toLowerCase().startsWith(prefix),
  );
  return offsetPage(request, found, 'organizations');
}

/** Groups, cursor-paged, deleted ones left out. */
function listGroups(request: TicketingRequest): Reply {
  const groups = [...request.caller.account.groups.values()].filter((group) => !group.deleted);
  return cursorPage(request, groups, 'groups', (group) => group, 100);
}

/** The account's tags by how many tickets carry them, most first (the provider counts the last 60 days). */
function listTags(request: TicketingRequest): Reply {
  const counts = new Map<string, number>();
  for (const ticket of request.caller.account.tickets.values()) {
    for (const tag of ticket.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const tags = [...counts]
    .sort(([a, left], [b, right]) => right - left || a.localeCompare(b))
    .map(([name, count]) => ({ name, count }));
  return offsetPage(request, tags, 'tags');
}

/** The account's ticket fields or forms, offset-paged, each with its own `url` as the provider answers. */
function listWithUrls(member: 'ticket_fields' | 'ticket_forms', records: 'ticketFields' | 'ticketForms') {
  return (request: TicketingRequest): Reply => {
    const base = request.caller.base;
    const listed = [...request.caller.account[records].values()].map((record) => ({
      ...record,
      url: `${base}/api/v2/${member}/${record.id}.json`,
    }));
    // Ticket fields page by cursor when asked (`page[size]`); both lists by offset otherwise.
    if (request.query.has('page[size]')) return cursorPage(request, listed, member, (record) => record, 100);
    return offsetPage(request, listed, member);
  };
}

/** One group, ticket field or form by id (`{"group": {...}}`), with its `url`; 404 when there is none. */
function showOne(
  member: 'group' | 'ticket_field' | 'ticket_form',
  records: 'groups' | 'ticketFields' | 'ticketForms',
) {
  return (request: TicketingRequest): Reply => {
    const record = request.caller.account[records].get(Number(request.params.id));
    if (!record || ('deleted' in record && record.deleted)) return json(404, NOT_FOUND);
    return json(200, {
      [member]: { ...record, url: `${request.caller.base}/api/v2/${member}s/${record.id}.json` },
    });
  };
}

/**
 * What a form fills its dropdowns from: groups, tags, ticket forms and
 * fields, and the name searches. Registered before the people routes, whose
 * `/users/:id` and `/organizations/:id` would take "autocomplete" as an id.
 */
export function directoryRoutes(router: Router<TicketingCaller>): void {
  for (const suffix of ['.json', '']) {
    router
      .on('GET', `/api/v2/users/autocomplete${suffix}`, autocompleteUsers)
      .on('GET', `/api/v2/organizations/autocomplete${suffix}`, autocompleteOrganizations)
      .on('GET', `/api/v2/groups${suffix}`, listGroups)
      .on('GET', `/api/v2/tags${suffix}`, listTags)
      .on('GET', `/api/v2/ticket_fields${suffix}`, listWithUrls('ticket_fields', 'ticketFields'))
      .on('GET', `/api/v2/ticket_forms${suffix}`, listWithUrls('ticket_forms', 'ticketForms'))
      .on('GET', `/api/v2/groups/:id${suffix}`, showOne('group', 'groups'))
      .on('GET', `/api/v2/ticket_fields/:id${suffix}`, showOne('ticket_field', 'ticketFields'))
      .on('GET', `/api/v2/ticket_forms/:id${suffix}`, showOne('ticket_form', 'ticketForms'));
  }
}
