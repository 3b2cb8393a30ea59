import * as z from 'zod';

/**
 * How a connection stands, in one vocabulary for every surface (the CLI,
 * doctor, the builder API and its picker, the MCP server, the library):
 * - `healthy`: it works, and keeps working without anyone's help;
 * - `expiring`: its refresh token (or its only token) ends within the
 *   keep-alive window, and keep-alive has not renewed it yet;
 * - `needs_reconnect`: the provider refused the grant, or the refresh token
 *   expired: only signing in again brings it back;
 * - `rate_limited`: the provider said to wait when it was last checked;
 * - `unreachable`: the provider could not be reached when it was last checked.
 */
export const connectionHealthStates = [
  'healthy',
  'expiring',
  'needs_reconnect',
  'rate_limited',
  'unreachable',
] as const;
/** One of `healthy`, `expiring`, `needs_reconnect`, `rate_limited`, `unreachable`. */
export const ConnectionHealthState = z.enum(connectionHealthStates);
/** One of `healthy`, `expiring`, `needs_reconnect`, `rate_limited`, `unreachable`. */
export type ConnectionHealthState = z.infer<typeof ConnectionHealthState>;

/**
 * A connection's state with when it was assessed and why. `reason` is one
 * of our own short texts or an error code, never a provider's words, so it
 * can carry no token.
 */
export const ConnectionHealth = z
  .object({
    state: ConnectionHealthState,
    /** Epoch ms of the assessment. */
    checkedAt: z.number().int(),
    reason: z.string().max(300).optional(),
  })
  .strict();
/** A connection's state with when it was assessed and why. */
export type ConnectionHealth = z.infer<typeof ConnectionHealth>;

/** How the last token refresh of a connection ended: `refreshed`, `refused` (the grant is gone) or `failed` (try again). */
export const RefreshOutcome = z
  .object({
    at: z.number().int(),
    outcome: z.enum(['refreshed', 'refused', 'failed']),
    /** An error code when it did not refresh; never a provider's words. */
    reason: z.string().max(300).optional(),
  })
  .strict();
/** How the last token refresh of a connection ended. */
export type RefreshOutcome = z.infer<typeof RefreshOutcome>;
