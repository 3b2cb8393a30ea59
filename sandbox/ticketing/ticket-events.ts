import { randomUUID } from 'node:crypto';
import type { CommentRecord, TicketRecord } from './ticketing-state.js';

/** The event types of the provider's event webhooks that the sandbox sends. */
export const TICKET_EVENT_TYPES = {
  created: 'zen:event-type:ticket.created',
  statusChanged: 'zen:event-type:ticket.status_changed',
  priorityChanged: 'zen:event-type:ticket.priority_changed',
  commentAdded: 'zen:event-type:ticket.comment_added',
  agentAssignmentChanged: 'zen:event-type:ticket.agent_assignment_changed',
} as const;

export type TicketEventType = (typeof TICKET_EVENT_TYPES)[keyof typeof TICKET_EVENT_TYPES];

/** A webhook wired to a business rule subscribes to exactly this. */
export const CONDITIONAL_TICKET_EVENTS = 'conditional_ticket_events';

export const EVENT_SUBSCRIPTIONS: readonly string[] = [
  ...Object.values(TICKET_EVENT_TYPES),
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

/** The ticket as event bodies carry it: ids as strings and enums in capitals, as the provider sends them. */
function detailOf(ticket: TicketRecord, actorId: number): Record<string, unknown> {
  const id = (value: number | null) => (value === null ? null : String(value));
  return {
    actor_id: String(actorId),
    assignee_id: id(ticket.assignee_id),
    created_at: ticket.created_at,
    description: ticket.description,
    external_id: ticket.external_id,
    group_id: id(ticket.group_id),
    id: String(ticket.id),
    organization_id: id(ticket.organization_id),
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

/** The events one change produces, in the order the provider would send them. */
export function ticketEvents(change: TicketChange, accountId: number, time: string): TicketEvent[] {
  const { before, after, comment } = change;
  const event = (type: TicketEventType, body: Record<string, unknown>): TicketEvent => ({
    type,
    account_id: accountId,
    id: randomUUID(),
    time,
    zendesk_event_version: EVENT_VERSION,
    subject: `zen:ticket:${after.id}`,
    detail: detailOf(after, change.actorId),
    event: body,
  });
  const events: TicketEvent[] = [];
  if (!before) {
    events.push(
      event(TICKET_EVENT_TYPES.created, { meta: { sequence: { id: '1', position: '1', total: '1' } } }),
    );
  } else {
    if (before.status !== after.status) {
      events.push(
        event(TICKET_EVENT_TYPES.statusChanged, {
          current: capitals(after.status),
          previous: capitals(before.status),
        }),
      );
    }
    if (before.priority !== after.priority) {
      events.push(
        event(TICKET_EVENT_TYPES.priorityChanged, {
          current: capitals(after.priority),
          previous: capitals(before.priority),
        }),
      );
    }
    if (before.assignee_id !== after.assignee_id) {
      const id = (value: number | null) => (value === null ? null : String(value));
      events.push(
        event(TICKET_EVENT_TYPES.agentAssignmentChanged, {
          current: id(after.assignee_id),
          previous: id(before.assignee_id),
        }),
      );
    }
  }
  // The first comment of a new ticket is its description, not an added comment.
  if (before && comment) {
    events.push(
      event(TICKET_EVENT_TYPES.commentAdded, {
        comment: {
          id: String(comment.id),
          body: comment.body,
          is_public: comment.public,
          author: { id: String(comment.author_id) },
        },
      }),
    );
  }
  return events;
}
