import { randomBytes, randomUUID } from 'node:crypto';
import type { CommentRecord, TicketRecord } from './ticketing-state.js';

/** The event types of the provider's event webhooks that the sandbox sends. */
export const TICKET_EVENT_TYPES = {
  created: 'zen:event-type:ticket.created',
  statusChanged: 'zen:event-type:ticket.status_changed',
  priorityChanged: 'zen:event-type:ticket.priority_changed',
  commentAdded: 'zen:event-type:ticket.comment_added',
  agentAssignmentChanged: 'zen:event-type:ticket.agent_assignment_changed',
  groupAssignmentChanged: 'zen:event-type:ticket.group_assignment_changed',
  subjectChanged: 'zen:event-type:ticket.subject_changed',
  typeChanged: 'zen:event-type:ticket.type_changed',
  requesterChanged: 'zen:event-type:ticket.requester_changed',
  organizationChanged: 'zen:event-type:ticket.organization_changed',
  externalIdChanged: 'zen:event-type:ticket.external_id_changed',
  taskDueAtChanged: 'zen:event-type:ticket.task_due_at_changed',
  tagsChanged: 'zen:event-type:ticket.tags_changed',
  customFieldChanged: 'zen:event-type:ticket.custom_field_changed',
  followersChanged: 'zen:event-type:ticket.followers_changed',
  emailCcsChanged: 'zen:event-type:ticket.email_ccs_changed',
} as const;

export type TicketEventType = (typeof TICKET_EVENT_TYPES)[keyof typeof TICKET_EVENT_TYPES];

/**
 * Ticket event types the provider has for changes the sandbox never makes
 * (brands, forms, custom statuses, redactions...): a webhook may subscribe
 * to them, and nothing is sent for them.
 */
const NEVER_SENT = [
  'brand_changed',
  'form_changed',
  'custom_status_changed',
  'description_changed',
  'submitter_changed',
  'problem_link_changed',
  'comment_made_private',
  'comment_redacted',
  'attachment_linked_to_comment',
  'attachment_redacted_from_comment',
  'marked_as_spam',
  'merged',
  'soft_deleted',
  'permanently_deleted',
  'undeleted',
].map((name) => `zen:event-type:ticket.${name}`);

/** A webhook wired to a business rule subscribes to exactly this. */
export const CONDITIONAL_TICKET_EVENTS = 'conditional_ticket_events';

export const EVENT_SUBSCRIPTIONS: readonly string[] = [
  ...Object.values(TICKET_EVENT_TYPES),
  ...NEVER_SENT,
  CONDITIONAL_TICKET_EVENTS,
];

/** The version the provider stamps on its ticket event bodies. */
const EVENT_VERSION = '2022-11-06';

/** What changed: a ticket created (no `before`) or updated, with the comment added in the same change. */
export interface TicketChange {
  before?: TicketRecord | undefined;
  after: TicketRecord;
  comment?: CommentRecord | undefined;
  actorId: number;
}

/** A ticket event body: `{type, account_id, id, time, zendesk_event_version, subject, detail, event}`. */
export interface TicketEvent {
  type: TicketEventType;
  account_id: number;
  id: string;
  time: string;
  zendesk_event_version: string;
  subject: string;
  detail: Record<string, unknown>;
  event: Record<string, unknown>;
}

/** Event bodies spell enum values in capitals (`OPEN`, `HIGH`), unlike the REST API. */
function capitals(value: string | null): string | null {
  return value === null ? null : value.toUpperCase();
}

/** Ids as event bodies carry them: strings. */
const idText = (value: number | null) => (value === null ? null : String(value));

/** The ticket as event bodies carry it: ids as strings and enums in capitals, as the provider sends them. */
function detailOf(ticket: TicketRecord, actorId: number): Record<string, unknown> {
  return {
    actor_id: String(actorId),
    assignee_id: idText(ticket.assignee_id),
    created_at: ticket.created_at,
    description: ticket.description,
    external_id: ticket.external_id,
    group_id: idText(ticket.group_id),
    id: String(ticket.id),
    organization_id: idText(ticket.organization_id),
    priority: capitals(ticket.priority),
    requester_id: String(ticket.requester_id),
    status: capitals(ticket.status),
    subject: ticket.subject,
    submitter_id: String(ticket.submitter_id),
    tags: [...ticket.tags],
    type: capitals(ticket.type),
    updated_at: ticket.updated_at,
    via: { channel: ticket.via.channel },
  };
}

/**
 * The ticket fields whose change has an event of `{previous, current}`, in
 * the order the sandbox sends them, with how the event writes the value.
 */
const VALUE_CHANGES: [keyof TicketRecord, TicketEventType, (ticket: TicketRecord) => unknown][] = [
  ['status', TICKET_EVENT_TYPES.statusChanged, (ticket) => capitals(ticket.status)],
  ['priority', TICKET_EVENT_TYPES.priorityChanged, (ticket) => capitals(ticket.priority)],
  ['assignee_id', TICKET_EVENT_TYPES.agentAssignmentChanged, (ticket) => idText(ticket.assignee_id)],
  ['group_id', TICKET_EVENT_TYPES.groupAssignmentChanged, (ticket) => idText(ticket.group_id)],
  ['subject', TICKET_EVENT_TYPES.subjectChanged, (ticket) => ticket.subject],
  ['type', TICKET_EVENT_TYPES.typeChanged, (ticket) => capitals(ticket.type)],
  ['requester_id', TICKET_EVENT_TYPES.requesterChanged, (ticket) => idText(ticket.requester_id)],
  ['organization_id', TICKET_EVENT_TYPES.organizationChanged, (ticket) => idText(ticket.organization_id)],
  ['external_id', TICKET_EVENT_TYPES.externalIdChanged, (ticket) => ticket.external_id],
  ['due_at', TICKET_EVENT_TYPES.taskDueAtChanged, (ticket) => ticket.due_at],
  ['follower_ids', TICKET_EVENT_TYPES.followersChanged, (ticket) => ticket.follower_ids.map(String)],
  ['collaborator_ids', TICKET_EVENT_TYPES.emailCcsChanged, (ticket) => ticket.collaborator_ids.map(String)],
];

/** What one update changed, each as its event type and event part (the sequence is added after). */
function changesOf(before: TicketRecord, after: TicketRecord): [TicketEventType, Record<string, unknown>][] {
  const changes: [TicketEventType, Record<string, unknown>][] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const [field, type, value] of VALUE_CHANGES) {
    if (same(before[field], after[field])) continue;
    changes.push([type, { current: value(after), previous: value(before) }]);
  }
  // Tags as added and removed (field names as the provider's event-type reference gives them; unverified here).
  const added = after.tags.filter((tag) => !before.tags.includes(tag));
  const removed = before.tags.filter((tag) => !after.tags.includes(tag));
  if (added.length || removed.length) {
    changes.push([TICKET_EVENT_TYPES.tagsChanged, { tags_added: added, tags_removed: removed }]);
  }
  for (const field of after.custom_fields) {
    const previous = before.custom_fields.find((candidate) => candidate.id === field.id)?.value ?? null;
    if (same(previous, field.value)) continue;
    changes.push([
      TICKET_EVENT_TYPES.customFieldChanged,
      { custom_field: { id: String(field.id) }, current: field.value, previous },
    ]);
  }
  return changes;
}

/**
 * The events one change produces, in the order the provider would send
 * them, each with the sequence that ties the events of one action together
 * (`meta.sequence`: its id, the event's position, and how many there are).
 */
export function ticketEvents(change: TicketChange, accountId: number, time: string): TicketEvent[] {
  const { before, after, comment } = change;
  const parts: [TicketEventType, Record<string, unknown>][] = before
    ? changesOf(before, after)
    : [[TICKET_EVENT_TYPES.created, {}]];
  // The first comment of a new ticket is its description, not an added comment.
  if (before && comment) {
    parts.push([
      TICKET_EVENT_TYPES.commentAdded,
      {
        comment: {
          id: String(comment.id),
          body: comment.body,
          is_public: comment.public,
          author: { id: String(comment.author_id) },
        },
      },
    ]);
  }
  const sequence = randomBytes(16).toString('hex').toUpperCase();
  return parts.map(([type, body], index) => ({
    type,
    account_id: accountId,
    id: randomUUID(),
    time,
    zendesk_event_version: EVENT_VERSION,
    subject: `zen:ticket:${after.id}`,
    detail: detailOf(after, change.actorId),
    event: { ...body, meta: { sequence: { id: sequence, position: index + 1, total: parts.length } } },
  }));
}
