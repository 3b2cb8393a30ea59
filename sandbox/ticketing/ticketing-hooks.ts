import type { TicketChange } from './ticket-events.js';
import type { TicketRecord } from './ticketing-state.js';

/** A webhook as the provider stores it (`POST /api/v2/webhooks`). */
export interface TicketingWebhook {
  id: string;
  name: string;
  description?: string | undefined;
  endpoint: string;
  http_method: 'POST';
  request_format: 'json';
  status: 'active' | 'inactive';
  subscriptions: string[];
  created_at: string;
  created_by: string;
  updated_at: string;
  /** Read only through `GET /api/v2/webhooks/{id}/signing_secret`. */
  secret: string;
}

export interface TriggerCondition {
  field: string;
  operator: string;
  value?: unknown;
}

export interface TriggerAction {
  field: string;
  value: unknown;
}

/** A business rule (`POST /api/v2/triggers`) whose `notification_webhook` action sends to a webhook. */
export interface TicketingTrigger {
  id: number;
  title: string;
  active: boolean;
  position: number;
  conditions: { all: TriggerCondition[]; any: TriggerCondition[] };
  actions: TriggerAction[];
  created_at: string;
  updated_at: string;
}

/** The condition fields and operators the sandbox evaluates; a trigger naming others is refused at creation. */
export const CONDITION_FIELDS: Record<string, readonly string[]> = {
  update_type: ['is'],
  status: ['is', 'is_not', 'changed', 'not_changed', 'value', 'value_previous'],
  priority: ['is', 'is_not', 'changed', 'not_changed', 'value', 'value_previous'],
  assignee_id: ['is', 'is_not', 'changed', 'not_changed'],
  comment_is_public: ['is'],
  current_tags: ['includes', 'not_includes'],
};

function fieldValue(ticket: TicketRecord | undefined, field: string): string | null {
  if (!ticket) return null;
  const value = (ticket as unknown as Record<string, unknown>)[field];
  return value === null || value === undefined ? null : String(value);
}

/** Whether one condition holds for a change, as the provider's trigger engine reads it. */
function holds(condition: TriggerCondition, change: TicketChange): boolean {
  const { field, operator } = condition;
  const wanted = condition.value === undefined || condition.value === null ? null : String(condition.value);
  if (field === 'update_type') return wanted === (change.before ? 'Change' : 'Create');
  if (field === 'comment_is_public') {
    if (!change.comment) return wanted === 'not_relevant';
    return wanted === String(change.comment.public);
  }
  if (field === 'current_tags') {
    const tags = (wanted ?? '').split(/\s+/).filter(Boolean);
    const has = tags.some((tag) => change.after.tags.includes(tag));
    return operator === 'includes' ? has : !has;
  }
  const now = fieldValue(change.after, field);
  const previous = change.before ? fieldValue(change.before, field) : null;
  const changed = !change.before || now !== previous;
  switch (operator) {
    case 'is':
      return now === wanted;
    case 'is_not':
      return now !== wanted;
    case 'changed':
      return changed;
    case 'not_changed':
      return !changed;
    case 'value':
      return changed && now === wanted;
    case 'value_previous':
      return changed && previous === wanted;
    default:
      return false;
  }
}

/** All `all` conditions hold, and at least one `any` condition when there are any. */
export function triggerFires(trigger: TicketingTrigger, change: TicketChange): boolean {
  if (!trigger.active) return false;
  const { all, any } = trigger.conditions;
  return (
    all.every((condition) => holds(condition, change)) && (!any.length || any.some((c) => holds(c, change)))
  );
}

/**
 * Fills the placeholders of a `notification_webhook` body (`{{ticket.id}}`,
 * `{{ticket.status}}`, ...). The body is JSON text, so each value is escaped
 * as the inside of a JSON string.
 */
export function renderTemplate(template: string, change: TicketChange): string {
  const ticket = change.after;
  const values: Record<string, unknown> = {
    'ticket.id': ticket.id,
    'ticket.title': ticket.subject,
    'ticket.description': ticket.description,
    'ticket.status': ticket.status,
    'ticket.priority': ticket.priority ?? '',
    'ticket.ticket_type': ticket.type ?? '',
    'ticket.assignee.id': ticket.assignee_id ?? '',
    'ticket.requester.id': ticket.requester_id,
    'ticket.external_id': ticket.external_id ?? '',
    'ticket.tags': ticket.tags.join(' '),
    'ticket.updated_at_with_timestamp': ticket.updated_at,
    'ticket.latest_comment.value': change.comment?.body ?? '',
  };
  return template.replace(/\{\{\s*([a-z_.]+)\s*\}\}/g, (placeholder, name: string) =>
    name in values ? JSON.stringify(String(values[name])).slice(1, -1) : placeholder,
  );
}
