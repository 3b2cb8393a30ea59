/**
 * Where the replay window (intake stage 5) reads a delivery's time. Either
 * is covered by the signature, so a replayed copy carries the time it was
 * first sent with.
 * - `signature`: the time the scheme signs (`verify.signedTime`), new on
 *   every attempt: it must be within `verify.toleranceMs` of now.
 * - `payload`: the event's own time (`occurredAt`, as `parse` reads it from
 *   the signed body), the same on every retry: it may be at most `maxAgeMs`
 *   old, which must outlast the provider's retries, and not ahead of now by
 *   more than clock skew.
 * The intake keeps each handled event's dedupe record until its window has
 * closed, so a copy is either a duplicate or too old.
 */
export type EventTimeSource = { from: 'signature' } | { from: 'payload'; maxAgeMs: number };
