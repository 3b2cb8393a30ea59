import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import type { TicketingAccount } from './ticketing-account.js';
import { USER_TEXT_FIELDS, type UserRecord } from './ticketing-state.js';
import {
  bodyMember,
  invalid,
  NOT_FOUND,
  pageLink,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

const ROLES = ['end-user', 'agent', 'admin'] as const;
/** The provider's user search: up to 100 per page, 10,000 records per query, offset paging only. */
const SEARCH_CAP = 10_000;

/** Whether a user matches one term of a user search: `key:value`, or text in name, email, notes or phone. */
function matchesTerm(user: UserRecord, term: string): boolean {
  const [key, ...rest] = term.split(':');
  const value = rest.join(':').toLowerCase();
  if (rest.length && key === 'email') return user.email.toLowerCase() === value;
  if (rest.length && key === 'role') return user.role === value;
  if (rest.length && key === 'name') return user.name.toLowerCase().includes(value);
  if (rest.length && key === 'organization_id') return String(user.organization_id) === value;
  const text = term.toLowerCase();
  return [user.name, user.email, user.notes, user.phone ?? ''].some((field) =>
    field.toLowerCase().includes(text),
  );
}

/** `GET /api/v2/users/search.json?query=...` (or `external_id=`, exact): offset-paged, as the provider pages it. */
function searchUsers(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const page = Math.max(1, Number(request.query.get('page') ?? '1'));
  const perPage = Math.min(100, Math.max(1, Number(request.query.get('per_page') ?? '100')));
  if (page * perPage > SEARCH_CAP) {
    return json(400, { error: 'invalid', description: 'The user search stops at 10,000 records per query.' });
  }
  const externalId = request.query.get('external_id');
  const terms = (request.query.get('query') ?? '').trim().split(/\s+/).filter(Boolean);
  if (externalId === null && !terms.length) {
    return json(400, { error: 'InvalidValue', description: 'query or external_id is required' });
  }
  const matched = [...account.users.values()]
    .filter((user) => externalId === null || user.external_id === externalId)
    .filter((user) => terms.every((term) => matchesTerm(user, term)));
  const more = page * perPage < Math.min(matched.length, SEARCH_CAP);
  return json(200, {
    users: matched.slice((page - 1) * perPage, page * perPage),
    count: matched.length,
    next_page: more ? pageLink(request, { page: String(page + 1), per_page: String(perPage) }) : null,
    previous_page: page > 1 ? pageLink(request, { page: String(page - 1), per_page: String(perPage) }) : null,
  });
}

/** The 422 problems of a user's fields, as the provider names them; the user itself when updating. */
function userProblems(
  account: TicketingAccount,
  fields: Record<string, unknown>,
  self?: UserRecord,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const email = fields.email;
  if (typeof email === 'string') {
    const owner = account.userByEmail(email);
    if (owner && owner !== self) problems.email = `Email: ${email} is already being used by another user`;
  }
  const externalId = fields.external_id;
  if (typeof externalId === 'string') {
    const owner = [...account.users.values()].find((user) => user.external_id === externalId);
    if (owner && owner !== self) problems.external_id = 'External: has already been taken';
  }
  if (fields.role !== undefined && !ROLES.includes(fields.role as never))
    problems.role = `Role: ${String(fields.role)} is not valid`;
  const org = fields.organization_id;
  if (org !== undefined && org !== null && !account.organizations.has(Number(org)))
    problems.organization_id = 'Organization: is invalid';
  return problems;
}

/** Sets the writable fields a body names (all but name, email and role, which callers check first). */
function applyUserFields(user: UserRecord, fields: Record<string, unknown>): void {
  for (const key of USER_TEXT_FIELDS) if (typeof fields[key] === 'string') user[key] = fields[key];
  if (typeof fields.organization_id === 'number' || fields.organization_id === null)
    user.organization_id = fields.organization_id;
  if (Array.isArray(fields.tags)) user.tags = fields.tags.map(String);
  if (typeof fields.suspended === 'boolean') user.suspended = fields.suspended;
}

/** A user with a unique email and external id; role end-user unless agent or admin. */
function createUser(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const fields = bodyMember(request, 'user');
  if (!fields || typeof fields.name !== 'string' || fields.name === '')
    return invalid({ name: 'Name: cannot be blank' });
  const problems = userProblems(account, fields);
  if (Object.keys(problems).length) return invalid(problems);
  const role = (fields.role as UserRecord['role'] | undefined) ?? 'end-user';
  const user = account.addUser({ name: fields.name, email: String(fields.email ?? ''), role });
  applyUserFields(user, fields);
  return json(201, { user });
}

/** Changes the fields named; email and external id stay unique. */
function updateUser(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const user = account.users.get(Number(request.params.id));
  if (!user) return json(404, NOT_FOUND);
  const fields = bodyMember(request, 'user') ?? {};
  const problems = userProblems(account, fields, user);
  if (Object.keys(problems).length) return invalid(problems);
  if (typeof fields.name === 'string' && fields.name !== '') user.name = fields.name;
  if (typeof fields.email === 'string') user.email = fields.email;
  if (fields.role !== undefined) user.role = fields.role as UserRecord['role'];
  applyUserFields(user, fields);
  user.updated_at = account.timestamp();
  return json(200, { user });
}

/**
 * `DELETE /api/v2/users/{id}`: 200 with the user, now inactive; the
 * provider keeps a deleted user's record out of lists and reads (404 after).
 * The signed-in user cannot delete themself.
 */
function deleteUser(request: TicketingRequest): Reply {
  const { account, userId } = request.caller;
  const id = Number(request.params.id);
  const user = account.users.get(id);
  if (!user) return json(404, NOT_FOUND);
  if (id === userId) return json(403, { error: 'Forbidden', description: 'You cannot delete yourself' });
  account.users.delete(id);
  return json(200, { user: { ...user, active: false, updated_at: account.timestamp() } });
}

/** User search and user writes; registered before the `:id` routes, which would take "search" as an id. */
export function userRoutes(router: Router<TicketingCaller>): void {
  router
    .on('GET', ['/api/v2/users/search.json', '/api/v2/users/search'], searchUsers)
    .on('POST', '/api/v2/users.json', createUser)
    .on('PUT', '/api/v2/users/:id.json', updateUser)
    .on('DELETE', ['/api/v2/users/:id.json', '/api/v2/users/:id'], deleteUser);
}
