import { InputError } from '../../src/errors/input-error.js';
import { NotFoundError } from '../../src/errors/not-found-error.js';
import type { ConnectionStore } from '../../src/store/connection-store.js';

/**
 * A stored connection is replaced only when asked: a second `connect` or
 * `connections add` with a reused id would otherwise drop a working
 * account's tokens without a word. Checked before anything is sent.
 * @returns the createdAt to keep when replacing, so the connection's age stays true.
 */
export async function refuseOverwrite(
  store: ConnectionStore,
  id: string,
  force: boolean | undefined,
): Promise<number | undefined> {
  const existing = await store.get(id);
  if (!existing) return undefined;
  if (force) return existing.createdAt;
  throw new InputError(
    `A connection with id "${id}" already exists (${existing.integration}${existing.label ? `, ${existing.label}` : ''}). Pass --force to replace it, or choose another --id. Nothing was changed.`,
    [{ path: 'id', message: 'already exists; --force replaces it' }],
  );
}

/** The stored connection, or a NotFoundError (exit 2) naming the id: another tenant's is not found alike. */
export async function requireConnection(store: ConnectionStore, id: string) {
  const connection = await store.get(id);
  if (!connection) {
    throw new NotFoundError(`No connection with id "${id}". List them with: toolsteps connections list.`, {
      fields: [{ path: 'id', message: 'unknown' }],
    });
  }
  return connection;
}
