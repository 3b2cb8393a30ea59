import { type Connection, connectionIdPattern } from '../model/connection.js';
import { checkConnection } from './check-connection.js';
import type { RecordShape } from './redis/encrypted-records.js';

/**
 * How a connection is sealed in a shared store (Redis, Postgres): its
 * secrets sealed, the rest in clear for listing; read back, it is checked
 * as `put` checks it (an InputError naming fields, never values).
 */
export const CONNECTION_SHAPE: RecordShape<Connection> = {
  kind: 'conn',
  noun: 'connection',
  idPattern: connectionIdPattern,
  split: ({ secrets, ...publicPart }) => ({ publicPart, secrets }),
  join: (publicPart, secrets) => checkConnection({ ...publicPart, secrets } as Connection),
};

/** A connection's public part as stored, checked, without its secrets (a list made without the key). */
export function connectionWithoutSecrets(part: Record<string, unknown>): Omit<Connection, 'secrets'> {
  const { secrets: _none, ...connection } = checkConnection({ ...part, secrets: {} } as Connection);
  return connection;
}
