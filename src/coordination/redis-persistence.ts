import type { RedisClient } from '../peers/redis-client.js';

/**
 * What a Redis keeps across a restart, as its configuration says:
 * - `aof`: every write goes to the append-only file first (`appendfsync`
 *   says how often it reaches the disk);
 * - `snapshots`: only `save` rules, so a restart loses what was written
 *   since the last snapshot;
 * - `none`: neither, so a restart loses everything;
 * - `unknown`: the configuration could not be read (an ACL without CONFIG,
 *   a managed Redis that renames it).
 */
export type RedisPersistence =
  | { kind: 'aof'; appendfsync: string }
  | { kind: 'snapshots'; save: string }
  | { kind: 'none' }
  | { kind: 'unknown'; reason: string };

/** One setting's value from `CONFIG GET name` (an array of name and value pairs). */
async function setting(client: RedisClient, name: string): Promise<string> {
  const answer = await client.call('CONFIG', 'GET', name);
  const pairs = Array.isArray(answer) ? (answer as string[]) : [];
  const at = pairs.indexOf(name);
  if (at < 0 || at + 1 >= pairs.length) throw new Error(`CONFIG GET ${name} gave no value`);
  return String(pairs[at + 1]);
}

/**
 * Asks Redis what it persists (`CONFIG GET save`, `appendonly`,
 * `appendfsync`). Without persistence a restart forgets every connection,
 * subscription, dedupe record, lock and queued event, which `toolsteps
 * doctor` warns about. Never throws: what cannot be read is `unknown`.
 */
export async function redisPersistence(client: RedisClient): Promise<RedisPersistence> {
  try {
    const [save, appendonly] = await Promise.all([setting(client, 'save'), setting(client, 'appendonly')]);
    if (appendonly === 'yes') return { kind: 'aof', appendfsync: await setting(client, 'appendfsync') };
    if (save.trim()) return { kind: 'snapshots', save: save.trim() };
    return { kind: 'none' };
  } catch (error) {
    const said = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error);
    return { kind: 'unknown', reason: said.message.split('\n')[0] ?? 'no answer' };
  }
}
