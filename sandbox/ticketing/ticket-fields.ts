import { json, type Reply } from '../sandbox-http.js';
import type { TicketingAccount } from './ticketing-account.js';
import { PRIORITIES, STATUSES, TICKET_TYPES, type TicketRecord } from './ticketing-state.js';
import { invalid } from './ticketing-wire.js';

/** The field problems of a ticket create or update, as the provider's 422 names them. */
export function validateFields(
  account: TicketingAccount,
  fields: Record<string, unknown>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const oneOf = (key: string, allowed: readonly string[]) => {
    if (fields[key] !== undefined && fields[key] !== null && !allowed.includes(String(fields[key]))) {
      problems[key] = `${key}: ${String(fields[key])} is not valid`;
    }
  };
  oneOf('status', STATUSES);
  oneOf('priority', PRIORITIES);
  oneOf('type', TICKET_TYPES);
  if (typeof fields.assignee_email === 'string') {
    const user = account.userByEmail(fields.assignee_email);
    if (!user || user.role === 'end-user')
      problems.assignee = `Assignee: ${fields.assignee_email} is not an agent`;
  }
  if (typeof fields.assignee_id === 'number') {
    const user = account.users.get(fields.assignee_id);
    if (!user || user.role === 'end-user') problems.assignee = 'Assignee: is not an agent';
  }
  Object.assign(problems, peopleProblems(account, fields));
  return problems;
}

/** Requester, organization, due date, followers and CCs that name no such record, as the provider's 422 says. */
function peopleProblems(account: TicketingAccount, fields: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  const user = (id: unknown) => account.users.get(Number(id));
  if (fields.requester_id !== undefined && !user(fields.requester_id))
    problems.requester = 'Requester: is invalid';
  if (
    fields.organization_id !== undefined &&
    fields.organization_id !== null &&
    !account.organizations.has(Number(fields.organization_id))
  )
    problems.organization_id = 'Organization: is invalid';
  if (typeof fields.due_at === 'string' && Number.isNaN(Date.parse(fields.due_at)))
    problems.due_at = 'Due at: is not a date';
  const followers = [
    ...(Array.isArray(fields.follower_ids) ? fields.follower_ids : []),
    ...(Array.isArray(fields.followers)
      ? (fields.followers as { user_id?: unknown }[]).map((entry) => entry?.user_id)
      : []),
  ];
  if (followers.some((id) => (user(id)?.role ?? 'end-user') === 'end-user'))
    problems.followers = 'Followers: must be agents';
  const ccs = [
    ...(Array.isArray(fields.collaborator_ids) ? fields.collaborator_ids : []),
    ...(Array.isArray(fields.additional_collaborators) ? fields.additional_collaborators : []),
  ];
  if (ccs.some((id) => !user(id))) problems.collaborators = 'Collaborators: is invalid';
  return problems;
}

/**
 * Applies the people fields of a create or an update: requester, group,
 * organization, due date, followers (`follower_ids` sets them, `followers`
 * edits them with put and delete) and CCs (`collaborator_ids` sets them,
 * `additional_collaborators` adds). Validated first by validateFields.
 */
export function applyPeople(ticket: TicketRecord, fields: Record<string, unknown>): void {
  if (typeof fields.requester_id === 'number') ticket.requester_id = fields.requester_id;
  if (typeof fields.group_id === 'number' || fields.group_id === null) ticket.group_id = fields.group_id;
  if (typeof fields.organization_id === 'number') ticket.organization_id = fields.organization_id;
  if (typeof fields.due_at === 'string' || fields.due_at === null)
    ticket.due_at = fields.due_at === null ? null : new Date(fields.due_at).toISOString();
  const ids = (value: unknown) => (Array.isArray(value) ? value.map(Number) : undefined);
  ticket.follower_ids = ids(fields.follower_ids) ?? ticket.follower_ids;
  for (const edit of Array.isArray(fields.followers)
    ? (fields.followers as { user_id: unknown; action?: string }[])
    : []) {
    const id = Number(edit.user_id);
    ticket.follower_ids = ticket.follower_ids.filter((follower) => follower !== id);
    if (edit.action !== 'delete') ticket.follower_ids.push(id);
  }
  ticket.collaborator_ids = ids(fields.collaborator_ids) ?? ticket.collaborator_ids;
  for (const id of ids(fields.additional_collaborators) ?? [])
    if (!ticket.collaborator_ids.includes(id)) ticket.collaborator_ids.push(id);
}

/**
 * The provider's safe update (`safe_update` with `updated_stamp`): a 409 when
 * the ticket changed after the stamp, so nothing is overwritten; undefined
 * when the write may go ahead.
 */
export function staleUpdate(
  ticket: TicketRecord,
  body: Record<string, unknown> | undefined,
): Reply | undefined {
  if (body?.safe_update !== true && body?.safe_update !== 'true') return undefined;
  const stamp = body.updated_stamp;
  if (typeof stamp !== 'string' || Number.isNaN(Date.parse(stamp))) {
    return invalid({ updated_stamp: 'Updated stamp: is required with safe_update' });
  }
  if (Date.parse(stamp) === Date.parse(ticket.updated_at)) return undefined;
  return json(409, {
    error: 'UpdateConflict',
    description:
      'Safe Update prevented the update due to outdated ticket data. Please fetch the latest ticket data and try again.',
  });
}

/** The assignee an update names (by email or id); undefined when it names none. */
export function resolveAssignee(
  account: TicketingAccount,
  fields: Record<string, unknown>,
): number | null | undefined {
  if (typeof fields.assignee_email === 'string') return account.userByEmail(fields.assignee_email)?.id;
  if (typeof fields.assignee_id === 'number' || fields.assignee_id === null)
    return fields.assignee_id as number | null;
  return undefined;
}

/** Tags as the provider stores them: lower case, spaces as underscores, no repeats. */
export function normalizeTags(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.map((tag) => String(tag).toLowerCase().replace(/\s+/g, '_')))];
}
