import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import {
  bodyMember,
  cursorPage,
  invalid,
  NOT_FOUND,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

/** Users, cursor-paged. */
function listUsers(request: TicketingRequest): Reply {
  return cursorPage(request, [...request.caller.account.users.values()], 'users', (user) => user, 100);
}

/** One user. */
function showUser(request: TicketingRequest): Reply {
  const user = request.caller.account.users.get(Number(request.params.id));
  return user ? json(200, { user }) : json(404, NOT_FOUND);
}

/** A user with a unique email; role end-user unless agent or admin. */
function createUser(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const fields = bodyMember(request, 'user');
  if (!fields || typeof fields.name !== 'string' || fields.name === '')
    return invalid({ name: 'Name: cannot be blank' });
  if (typeof fields.email === 'string' && account.userByEmail(fields.email)) {
    return invalid({ email: `Email: ${fields.email} is already being used by another user` });
  }
  const role = ['end-user', 'agent', 'admin'].includes(String(fields.role))
    ? (fields.role as 'end-user')
    : 'end-user';
  const user = account.addUser({ name: fields.name, email: String(fields.email ?? ''), role });
  return json(201, { user });
}

/** The signed-in user (the provider's `GET /api/v2/users/me`), the cheapest authenticated read. */
function showMe(request: TicketingRequest): Reply {
  const user = request.caller.account.users.get(request.caller.userId);
  return user ? json(200, { user }) : json(404, NOT_FOUND);
}

/** Name and email. */
function updateUser(request: TicketingRequest): Reply {
  const user = request.caller.account.users.get(Number(request.params.id));
  if (!user) return json(404, NOT_FOUND);
  const fields = bodyMember(request, 'user') ?? {};
  if (typeof fields.name === 'string') user.name = fields.name;
  if (typeof fields.email === 'string') user.email = fields.email;
  user.updated_at = request.caller.account.timestamp();
  return json(200, { user });
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
    .on('GET', '/api/v2/users/me.json', showMe)
    .on('GET', '/api/v2/users/me', showMe)
    .on('GET', '/api/v2/users/:id.json', showUser)
    .on('POST', '/api/v2/users.json', createUser)
    .on('PUT', '/api/v2/users/:id.json', updateUser)
    .on('GET', '/api/v2/organizations.json', listOrganizations)
    .on('GET', '/api/v2/organizations/:id.json', showOrganization);
}
