import type { RedisHandle } from './redis-handle.js';

/** `text` as a literal part of a SCAN pattern: its glob characters escaped. */
function literal(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/** Every key that starts with `start` (taken literally) and then matches the glob `rest`, by SCAN, never KEYS. */
export async function scanKeys(coordinator: RedisHandle, start: string, rest: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = (await coordinator.client.call(
      'SCAN',
      cursor,
      'MATCH',
      `${literal(start)}${rest}`,
      'COUNT',
      1000,
    )) as [string, string[]];
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes every key `scanKeys` finds, a batch at a time. */
export async function deleteMatching(coordinator: RedisHandle, start: string, rest: string): Promise<number> {
  const keys = await scanKeys(coordinator, start, rest);
  for (let at = 0; at < keys.length; at += 500) await coordinator.client.del(...keys.slice(at, at + 500));
  return keys.length;
}
