import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { normalizeTags } from './ticket-fields.js';
import type { TicketingAccount } from './ticketing-account.js';
import type { OrganizationRecord } from './ticketing-state.js';
import {
  bodyMember,
  invalid,
  NOT_FOUND,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

/** The 422 problems of an organization's fields, as the provider names them (name and external id unique). */
function organizationProblems(
  account: TicketingAccount,
  fields: Record<string, unknown>,
  self?: OrganizationRecord,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const others = [...account.organizations.values()].filter((org) => org !== self);
  const name = typeof fields.name === 'string' ? fields.name.toLowerCase() : undefined;
  if (name !== undefined && others.some((org) => org.name.toLowerCase() === name))
    problems.name = 'Name: has already been taken';
  if (typeof fields.external_id === 'string' && others.some((org) => org.external_id === fields.external_id))
    problems.external_id = 'External: has already been taken';
  const group = fields.group_id;
  if (group !== undefined && group !== null && !account.groups.has(Number(group)))
    problems.group_id = 'Group: is invalid';
  if (fields.domain_names !== undefined && !Array.isArray(fields.domain_names))
    problems.domain_names = 'Domain names: must be a list';
  return problems;
}

/** Sets the writable fields a body names, besides the name. */
function applyOrganizationFields(org: OrganizationRecord, fields: Record<string, unknown>): void {
  for (const key of ['details', 'notes', 'external_id'] as const) {
    if (typeof fields[key] === 'string' || fields[key] === null) org[key] = fields[key] as string | null;
  }
  if (typeof fields.group_id === 'number' || fields.group_id === null) org.group_id = fields.group_id;
  if (Array.isArray(fields.domain_names)) org.domain_names = fields.domain_names.map(String);
  if (fields.tags !== undefined) org.tags = normalizeTags(fields.tags);
}

/** The organization as the provider answers it: every field present. */
function shown(org: OrganizationRecord) {
  return {
    details: null,
    notes: null,
    external_id: null,
    group_id: null,
    tags: [],
    updated_at: org.created_at,
    ...org,
  };
}

/** `POST /api/v2/organizations`: 201 with a unique name (case-insensitive). */
function createOrganization(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const fields = bodyMember(request, 'organization');
  if (!fields || typeof fields.name !== 'string' || fields.name.trim() === '')
    return invalid({ name: 'Name: cannot be blank' });
  const problems = organizationProblems(account, fields);
  if (Object.keys(problems).length) return invalid(problems);
  const at = account.timestamp();
  const org: OrganizationRecord = {
    id: account.newId('organization'),
    name: fields.name,
    domain_names: [],
    created_at: at,
    updated_at: at,
  };
  applyOrganizationFields(org, fields);
  account.organizations.set(org.id, org);
  return json(201, { organization: shown(org) });
}

/** `PUT /api/v2/organizations/{id}`: the fields named change. */
function updateOrganization(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const org = account.organizations.get(Number(request.params.id));
  if (!org) return json(404, NOT_FOUND);
  const fields = bodyMember(request, 'organization') ?? {};
  if (fields.name !== undefined && (typeof fields.name !== 'string' || fields.name.trim() === ''))
    return invalid({ name: 'Name: cannot be blank' });
  const problems = organizationProblems(account, fields, org);
  if (Object.keys(problems).length) return invalid(problems);
  if (typeof fields.name === 'string') org.name = fields.name;
  applyOrganizationFields(org, fields);
  org.updated_at = account.timestamp();
  return json(200, { organization: shown(org) });
}

/** `DELETE /api/v2/organizations/{id}`: 204; its users and tickets lose it, as at the provider. */
function deleteOrganization(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const id = Number(request.params.id);
  if (!account.organizations.delete(id)) return json(404, NOT_FOUND);
  for (const user of account.users.values()) if (user.organization_id === id) user.organization_id = null;
  for (const ticket of account.tickets.values())
    if (ticket.organization_id === id) ticket.organization_id = null;
  return { status: 204 };
}

/** Organization writes; reads are with the people routes. */
export function organizationRoutes(router: Router<TicketingCaller>): void {
  router
    .on('POST', ['/api/v2/organizations.json', '/api/v2/organizations'], createOrganization)
    .on('PUT', ['/api/v2/organizations/:id.json', '/api/v2/organizations/:id'], updateOrganization)
    .on('DELETE', ['/api/v2/organizations/:id.json', '/api/v2/organizations/:id'], deleteOrganization);
}
