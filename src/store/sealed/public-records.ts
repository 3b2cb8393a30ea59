import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';

/**
 * A record's hash as `EncryptedRecords` writes it: whole only with its public
 * part, its sealed secrets and the id of the key that sealed them. Anything
 * less (a stray key, a hand edit) is not a record and is skipped.
 */
export function isWholeRecord(hash: Record<string, string>): boolean {
  return Boolean(hash.public && hash.secrets && hash.kid);
}

/** The set of every id of one kind of record, which `EncryptedRecords` keeps beside the records. */
export function recordIndexKey(coordinator: RedisCoordinator, kind: string): string {
  return coordinator.key(kind, '_index');
}

/**
 * The public part of every record of one kind, in id order, read without the
 * encryption key: listing needs nothing sealed, so it needs no key. Each part
 * is as stored, unchecked; the caller checks it against its schema.
 */
export async function listPublicRecords(
  coordinator: RedisCoordinator,
  kind: string,
): Promise<Record<string, unknown>[]> {
  const ids = (await coordinator.client.smembers(recordIndexKey(coordinator, kind))).sort();
  const hashes = await Promise.all(ids.map((id) => coordinator.client.hgetall(coordinator.key(kind, id))));
  return hashes.flatMap((hash) =>
    isWholeRecord(hash) ? [JSON.parse(hash.public as string) as Record<string, unknown>] : [],
  );
}
