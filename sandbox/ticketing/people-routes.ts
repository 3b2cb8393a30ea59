import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { cursorPage, NOT_FOUND, type TicketingCaller, type TicketingRequest } from './ticketing-wire.js';

/** Users, cursor-paged; `role` (or `role[]`, repeated) keeps those roles only. */
function listUsers(request: TicketingRequest): Reply {
  const roles = [...request.query.getAll('role'), ...request.query.getAll('role[]')];
  const users = [...request.caller.account.users.values()].filter(
    (user) => !roles.length || roles.includes(user.role),
  );
  return cursorPage(request, users, 'users', (user) => user, 100);
}

/** One user. */
function showUser(request: TicketingRequest): Reply {
  const user = request.caller.account.users.get(Number(request.params.id));
  return user ? json(200, { user }) : json(404, NOT_FOUND);
}

/** The signed-in user (the provider's `GET /api/v2/users/me`), the cheapest authenticated read. */
function showMe(request: TicketingRequest): Reply {
  const user = request.caller.account.users.get(request.caller.userId);
  return user ? json(200, { user }) : json(404, NOT_FOUND);
}

/** Organizations, cursor-paged. */
function listOrganizations(request: TicketingRequest): Reply {
  return cursorPage(
    request,
    [...request.caller.account.organizations.values()],
    'organizations',
    (org) => org,
    100,
  );
}

/** One organization. */
function showOrganization(request: TicketingRequest): Reply {
  const organization = request.caller.account.organizations.get(Number(request.params.id));
  return organization ? json(200, { organization }) : json(404, NOT_FOUND);
}

/** Users and organizations. */
export function peopleRoutes(router: Router<TicketingCaller>): void {
  router
    .on('GET', '/api/v2/users.json', listUsers)
    // Before `:id`, which would take "me" as an id.
    .on('GET', ['/api/v2/users/me.json', '/api/v2/users/me'], showMe)
    .on('GET', '/api/v2/users/:id.json', showUser)
    .on('GET', '/api/v2/organizations.json', listOrganizations)
    .on('GET', '/api/v2/organizations/:id.json', showOrganization);
}
