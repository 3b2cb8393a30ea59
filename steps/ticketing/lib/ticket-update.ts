import * as z from 'zod';
import {
  builtOnce,
  type HttpClient,
  isToolstepsError,
  ProviderError,
  type ToolstepsError,
} from '../../../src/kit/index.js';
import { ticketingPath } from './paths.js';
import { readMember } from './read-member.js';
import { Ticket } from './ticket-schema.js';

const Audit = builtOnce(() =>
  z.object({
    events: z.array(z.object({ id: z.number().optional(), type: z.string().optional() }).loose()).default([]),
  }),
);
const UpdateAnswer = builtOnce(() => z.object({ ticket: Ticket(), audit: Audit().optional() }));

/** A ticket PUT's answer: the ticket after it, and the id of the comment it added, when the audit names one. */
export interface TicketUpdated {
  ticket: Ticket;
  commentId: number | null;
}

/** The ticket as it is now. */
export async function readTicket(http: HttpClient, ticketId: number): Promise<Ticket> {
  const path = ticketingPath('ticket', ticketId);
  const shown = await http.request({ method: 'GET', path });
  return readMember(shown.body, 'ticket', Ticket(), `GET ${path}`);
}

/**
 * `PUT /api/v2/tickets/{id}.json`. With a `stamp` it is the provider's safe
 * update (`safe_update` with `updated_stamp`: "Prevents updates with outdated
 * ticket data"): it lands only while the ticket's updated_at is still the
 * stamp, else 409 and nothing changes. A PUT that adds a comment is never
 * replayed after an ambiguous failure, stamp or not: updated_at is written to
 * the second, so a replay within the second of a landed write would pass the
 * guard and post the comment twice.
 */
export async function putTicket(
  http: HttpClient,
  ticketId: number,
  fields: Record<string, unknown>,
  stamp?: string,
): Promise<TicketUpdated> {
  const path = ticketingPath('ticket', ticketId);
  const guard = stamp === undefined ? {} : { safe_update: true, updated_stamp: stamp };
  const response = await http.request({
    method: 'PUT',
    path,
    body: { ticket: { ...fields, ...guard } },
    idempotent: fields.comment === undefined,
  });
  const answer = UpdateAnswer().safeParse(response.body);
  const ticket = readMember(response.body, 'ticket', Ticket(), `PUT ${path}`);
  const added = answer.success
    ? answer.data.audit?.events.find((event) => event.type === 'Comment')
    : undefined;
  return { ticket, commentId: added?.id ?? null };
}

/** The provider refused a safe update: the ticket changed after the stamp. */
export function isConflict(error: unknown): error is ToolstepsError {
  return isToolstepsError(error) && error.status === 409;
}

/** Two spellings of one instant (`...:05Z`, `...:05.000Z`) are the same time. */
export function sameInstant(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && Date.parse(a) === Date.parse(b);
}

/**
 * The clear conflict an `if_updated_at` guard answers: the ticket changed
 * since the caller read it, and nothing was changed.
 */
export function ticketChanged(
  ticketId: number,
  ifUpdatedAt: string,
  seen: { updatedAt?: string | undefined; cause?: ToolstepsError },
): ProviderError {
  const now = seen.updatedAt ? ` (it was updated at ${seen.updatedAt})` : '';
  return new ProviderError(
    `Ticket ${ticketId} changed since ${ifUpdatedAt}${now}: nothing was changed, so no one's edit was overwritten.`,
    {
      code: 'conflict',
      status: seen.cause?.status,
      sent: seen.cause !== undefined,
      outcome: seen.cause ? 'refused' : 'not_sent',
      providerCode: seen.cause?.providerCode,
      providerMessage: seen.cause?.providerMessage,
      cause: seen.cause,
      fields: [{ path: 'if_updated_at', message: 'the ticket was updated after this time' }],
      context: { ticket_id: ticketId, if_updated_at: ifUpdatedAt, updated_at: seen.updatedAt ?? null },
      hint: 'Read the ticket again (Get Ticket Info), check what changed, then send the update with its new updated_at as if_updated_at.',
    },
  );
}
