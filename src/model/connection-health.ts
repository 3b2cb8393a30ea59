import * as z from 'zod';

/**
 * How a connection fared the last time it was checked (a free read at the
 * provider): `ok`, or `failing` with the error's code. A builder shows it
 * beside the account's name. The connection lifecycle (issue 40) adds its
 * own states to this one vocabulary; a page that renders `state` as it
 * comes keeps working.
 */
export const ConnectionHealth = z
  .object({
    state: z.enum(['ok', 'failing']),
    /** Epoch ms of the check. */
    checkedAt: z.number().int(),
    /** The check's error code when failing (`auth_failed`, `network_error`, ...). */
    code: z.string().max(64).optional(),
  })
  .strict();
/** The last check's verdict on a connection, with when it was made. */
export type ConnectionHealth = z.infer<typeof ConnectionHealth>;
