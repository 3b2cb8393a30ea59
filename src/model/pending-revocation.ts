import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { Connection } from './connection.js';
import { TENANT_ID_PATTERN } from './tenant-id.js';

/** What a pending revocation's id may be: `rv_` and 20 hex digits. */
export const pendingRevocationIdPattern = /^rv_[a-f0-9]{20}$/;

/** A fresh pending revocation id. */
export function newPendingRevocationId(): string {
  return `rv_${randomBytes(10).toString('hex')}`;
}

/**
 * A removed connection whose grant the provider has not yet taken back: the
 * revocation failed for a reason that may pass (a 5xx, a timeout, the
 * network). The connection is kept whole, its secrets sealed as the store
 * seals a connection's, so a later run can send the revocation again; the
 * record is deleted once the provider confirms, or once it is given up.
 * `lastError` holds our own error code and the status, never the provider's words.
 */
export const PendingRevocation = z
  .object({
    id: z.string().regex(pendingRevocationIdPattern, 'rv_ followed by 20 hex digits'),
    tenant: z.string().regex(TENANT_ID_PATTERN),
    /** The connection as it was removed: its id, integration, fields and secrets. */
    connection: Connection,
    /** Revocations sent so far (the first, at removal, included). */
    attempts: z.number().int().min(0),
    /** Epoch ms before which no run sends it again: the backoff, or a run's claim on it. */
    nextAttemptAt: z.number().int(),
    lastError: z
      .object({ code: z.string().max(100), status: z.number().int().optional(), at: z.number().int() })
      .strict()
      .optional(),
    createdAt: z.number().int(),
  })
  .strict();
/** A removed connection whose revocation at the provider is still to be done. */
export type PendingRevocation = z.infer<typeof PendingRevocation>;
