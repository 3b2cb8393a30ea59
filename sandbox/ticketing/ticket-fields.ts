import type { TicketingAccount } from './ticketing-account.js';
import { PRIORITIES, STATUSES, TICKET_TYPES } from './ticketing-state.js';

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
  return problems;
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
