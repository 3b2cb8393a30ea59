import { checkRecord } from '../model/check-record.js';
import { type Connection, secretValues } from '../model/connection.js';
import { PendingRevocation, pendingRevocationIdPattern } from '../model/pending-revocation.js';
import type { RecordShape } from './redis/encrypted-records.js';

/** A pending revocation about to be stored, checked as `put` checks it: an InputError naming fields, never values. */
export function checkPendingRevocation(value: PendingRevocation): PendingRevocation {
  return checkRecord(PendingRevocation, 'pending revocation', value);
}

/**
 * How a pending revocation is sealed in a shared store (Redis, Postgres):
 * its connection's secrets sealed exactly as a connection's are, the rest
 * (ids, attempts, times) in clear so a listing needs no key.
 */
export const PENDING_REVOCATION_SHAPE: RecordShape<PendingRevocation> = {
  kind: 'revoke',
  noun: 'pending revocation',
  idPattern: pendingRevocationIdPattern,
  split: ({ connection: { secrets, ...connection }, ...rest }) => ({
    publicPart: { ...rest, connection },
    secrets,
  }),
  join: (publicPart, secrets) => {
    const { connection, ...rest } = publicPart as Omit<PendingRevocation, 'connection'> & {
      connection: Omit<Connection, 'secrets'>;
    };
    return checkPendingRevocation({ ...rest, connection: { ...connection, secrets } } as PendingRevocation);
  },
};

/** Every secret a pending revocation holds, for redaction. */
export function pendingSecrets(pending: PendingRevocation): string[] {
  return secretValues(pending.connection);
}
