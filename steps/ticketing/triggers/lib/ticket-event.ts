import * as z from 'zod';
import type { EventFacts } from '../../../../src/kit/index.js';
import { builtOnce } from '../../../../src/kit/index.js';

/** The provider sends ids as strings in event payloads; numbers are accepted too. */
const ProviderId = builtOnce(() => z.union([z.string().min(1).max(64), z.number().int()]));

export const ticketStatuses = ['new', 'open', 'pending', 'hold', 'solved', 'closed'] as const;
export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;

/**
 * The ticket as it stands after the event (`detail`). Event payloads spell
 * enums in capitals (`OPEN`, `HIGH`); setup filters compare without case.
 */
export const TicketDetail = builtOnce(() =>
  z
    .object({
      id: ProviderId().describe('Ticket id.'),
      subject: z.string().nullish().describe('Ticket subject.'),
      description: z.string().nullish().describe('First comment of the ticket.'),
      status: z.string().nullish().describe('Ticket status (new, open, pending, hold, solved, closed).'),
      priority: z.string().nullish().describe('Ticket priority (low, normal, high, urgent), or null.'),
      type: z.string().nullish().describe('problem, incident, question or task.'),
      requester_id: ProviderId().nullish().describe('User who asked for support.'),
      submitter_id: ProviderId().nullish(),
      // A business rule's placeholder renders an unassigned ticket as ''.
      assignee_id: ProviderId()
        .or(z.literal(''))
        .nullish()
        .describe('Agent the ticket is assigned to (empty or null when unassigned).'),
      group_id: ProviderId().nullish(),
      organization_id: ProviderId().nullish(),
      tags: z.array(z.string()).nullish(),
      created_at: z.string().nullish(),
      updated_at: z.string().nullish(),
    })
    .loose(),
);

/** A value change as event webhooks report it. */
export const ValueChange = <Value extends z.ZodType>(value: Value) =>
  z
    .object({
      previous: value.nullish().describe('The value before the change.'),
      current: value.nullish().describe('The value after the change.'),
    })
    .loose();

/**
 * The envelope of every ticket event webhook delivery:
 * `{type, account_id, id, time, zendesk_event_version, subject, detail, event}`
 * (provider facts, "Event webhooks"), with `event` holding what changed.
 */
function ticketEnvelope<Type extends z.ZodType, Event extends z.ZodType>(type: Type, event: Event) {
  return z
    .object({
      type: type.describe('The provider event type.'),
      account_id: ProviderId().describe('Account the event happened in.'),
      id: z.string().min(1).max(200).describe('Event id: the same on every retry of this event.'),
      time: z.iso.datetime({ offset: true }).describe('When the event happened (ISO-8601).'),
      zendesk_event_version: z.string().describe('Version of the event schema.'),
      subject: z.string().describe('What the event is about, e.g. zen:ticket:123.'),
      detail: TicketDetail(),
      event,
    })
    .loose();
}

/** A delivery of one ticket event type (`ticket.created`, `ticket.status_changed`...). */
export function ticketEventSchema<Event extends z.ZodType>(type: string, event: Event) {
  return ticketEnvelope(z.literal(`zen:event-type:${type}`), event);
}

/** A delivery of any of several ticket event types, for a trigger whose webhook subscribes to them all. */
export function anyTicketEventSchema<Event extends z.ZodType>(
  types: readonly [string, ...string[]],
  event: Event,
) {
  return ticketEnvelope(
    z.enum(types.map((type) => `zen:event-type:${type}`) as [string, ...string[]]),
    event,
  );
}

export interface TicketEventEnvelope {
  id: string;
  time: string;
}

export function ticketEventFacts(event: TicketEventEnvelope): EventFacts {
  return { eventId: event.id, occurredAt: event.time };
}

/** The ticket fields every ticketing trigger maps by default (spec: subject, description, requester, priority...). */
export const ticketVariables = {
  ticket_id: '$.detail.id',
  subject: '$.detail.subject',
  description: '$.detail.description',
  requester: '$.detail.requester_id',
  priority: '$.detail.priority',
  status: '$.detail.status',
  assignee: '$.detail.assignee_id',
} as const;

/**
 * An example delivery of `type` with the given event part, as the provider
 * sends it (provider facts, "Event webhooks"): for `describe`, and the body
 * `triggers test` asks the provider to deliver. Enums in capitals, as sent.
 */
export function ticketEventExample<Event>(type: string, event: Event) {
  return (facts: EventFacts) => ({
    type: `zen:event-type:${type}` as const,
    account_id: 12514403,
    id: facts.eventId,
    time: facts.occurredAt,
    zendesk_event_version: '2022-11-06',
    subject: 'zen:ticket:5158',
    detail: {
      id: '5158',
      subject: 'Printer on fire',
      description: 'The printer in room 3 is on fire.',
      status: 'OPEN',
      priority: 'HIGH',
      type: 'INCIDENT',
      requester_id: '8447388090494',
      assignee_id: '8447388090111',
      tags: ['hardware'],
      created_at: facts.occurredAt,
      updated_at: facts.occurredAt,
    },
    event,
  });
}
