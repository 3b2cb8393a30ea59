import * as z from 'zod';

/**
 * How a removed connection's grant stands at its provider:
 * - `revoked`: the provider confirmed it took the grant back;
 * - `already_ended`: the provider no longer knew it (revoked by an admin,
 *   expired): nothing was left to take back;
 * - `not_revocable`: the provider has no way for a client to revoke it (an
 *   API key, a long-lived integration token): `reason` says what a person can do;
 * - `pending`: the revocation failed for a reason that may pass (a 5xx, a
 *   timeout, the network); it is kept, sealed, and retried with backoff;
 * - `gave_up`: the provider refused it, or it failed every try: the grant may
 *   still be alive; `reason` says what to do by hand.
 */
export const revocationStates = ['revoked', 'already_ended', 'not_revocable', 'pending', 'gave_up'] as const;
/** One of `revoked`, `already_ended`, `not_revocable`, `pending`, `gave_up`. */
export const RevocationState = z.enum(revocationStates);
/** One of `revoked`, `already_ended`, `not_revocable`, `pending`, `gave_up`. */
export type RevocationState = z.infer<typeof RevocationState>;

/**
 * What removing a connection did at its provider. `reason` is our own
 * words and `code` our own error code, never a provider's text, so neither
 * can carry a token.
 */
export const RevocationReport = z
  .object({
    state: RevocationState.describe('How the grant stands at the provider.'),
    reason: z
      .string()
      .max(300)
      .optional()
      .describe('Why, in our own words: what a person can do, where anything.'),
    code: z.string().max(100).optional().describe('The error code of the last failed try.'),
    attempts: z.number().int().optional().describe('Revocations sent so far.'),
    nextAttemptAt: z.number().int().optional().describe('Epoch ms of the next try of a pending revocation.'),
    pendingId: z.string().optional().describe('The pending revocation that keeps it, while it is pending.'),
  })
  .strict()
  .meta({ id: 'RevocationReport' });
/** What removing a connection did at its provider. */
export type RevocationReport = z.infer<typeof RevocationReport>;
