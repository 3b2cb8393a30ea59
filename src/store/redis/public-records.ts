import { TamperedRecordError } from '../../errors/index.js';
import type { RedisHandle } from './redis-handle.js';

/**
 * A record's hash as `EncryptedRecords` writes it: whole only with its public
 * part, its sealed secrets and the id of the key that sealed them. Anything
 * less (a stray key, a hand edit) is not a record and is skipped.
 */
export function isWholeRecord(hash: Record<string, string>): boolean {
  return Boolean(hash.public && hash.secrets && hash.kid);
}

/** The set of every id of one kind of record, which `EncryptedRecords` keeps beside the records. */
export function recordIndexKey(coordinator: RedisHandle, kind: string): string {
  return coordinator.key(kind, '_index');
}

/**
 * A record's public part as stored. toolsteps writes it as a JSON object, so
 * anything else was written by someone else: refused by the record's name.
 * @throws TamperedRecordError `altered`.
 */
export function parsePublicPart(json: string, record: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return parsed as Record<string, unknown>;
  }
  throw new TamperedRecordError(
    `The ${record} in the store has public fields that are not a JSON object: it was written outside toolsteps, so it is not used.`,
    'altered',
    { context: { record } },
  );
}

/**
 * The public part of every record of one kind, in id order, read without the
 * encryption key: listing needs nothing sealed, so it needs no key. Each part
 * is as stored, unchecked beyond being JSON; the caller checks it against its
 * schema. `noun` names a record in messages (`connection`).
 * @throws TamperedRecordError `altered` for a public part that is not a JSON object.
 */
export async function listPublicRecords(
  coordinator: RedisHandle,
  kind: string,
  noun: string,
): Promise<Record<string, unknown>[]> {
  const ids = (await coordinator.client.smembers(recordIndexKey(coordinator, kind))).sort();
  const hashes = await Promise.all(ids.map((id) => coordinator.client.hgetall(coordinator.key(kind, id))));
  return hashes.flatMap((hash, at) =>
    isWholeRecord(hash) ? [parsePublicPart(hash.public as string, `${noun} ${ids[at]}`)] : [],
  );
}
