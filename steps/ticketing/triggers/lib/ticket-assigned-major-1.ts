import * as z from 'zod';
import { builtOnce } from '../../../../src/kit/index.js';
import { ticketEventSchema, ticketVariables, ValueChange } from './ticket-event.js';

/** The provider's name for an assignment: the ticket's agent changed. */
export const ASSIGNMENT_EVENT_TYPE = 'ticket.agent_assignment_changed';

/**
 * Ticket Assigned 1.0's payload as it was released: the provider's own
 * `event: { previous, current }`. Kept as released, so a change to the
 * latest payload cannot change what subscriptions on major 1 read.
 */
export const TicketAssignedPayloadMajor1 = builtOnce(() =>
  ticketEventSchema(ASSIGNMENT_EVENT_TYPE, ValueChange(z.union([z.string(), z.number()]))),
);

/** Major 2's assignment part, which major 1 reads as `previous` and `current`. */
interface Assignment {
  assignee_id: string | number | null;
  previous_assignee_id: string | number | null;
}

/**
 * Pure: a major-2 payload as major 1 delivered it. Everything but the
 * assignment is the same payload; the two named ids go back to the
 * provider's `current` and `previous`, and anything else the provider sent
 * under `event` stays where it was.
 */
export function downgradeAssignedPayload<Payload extends { event: Assignment }>(payload: Payload) {
  const { assignee_id, previous_assignee_id, ...rest } = payload.event;
  return { ...payload, event: { ...rest, previous: previous_assignee_id, current: assignee_id } };
}

/** Major 1's default mapping, as it was released. */
export const ticketAssignedVariablesMajor1 = {
  ...ticketVariables,
  assignee: '$.event.current',
  previous_assignee: '$.event.previous',
};

/** Where major 1's payload paths are in major 2's: a saved mapping is rewritten through it on upgrade. */
export const ticketAssignedPathsToMajor2 = {
  '$.event.current': '$.event.assignee_id',
  '$.event.previous': '$.event.previous_assignee_id',
};
