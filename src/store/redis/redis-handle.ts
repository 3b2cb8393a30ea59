import type { Locks } from '../../model/locks.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { RedisClient } from '../../peers/redis-client.js';

/**
 * What a Redis store needs of its connection: the guarded client, the key
 * prefix it lives under, one tenant's view of the same, the one-round-trip
 * record read, and the locks. The coordinator is one such handle; a store
 * takes this narrower type so the store layer never depends on coordination.
 * `Self` is the handle's own kind, so a tenant's view of a coordinator is
 * still a coordinator to whoever holds one.
 */
// biome-ignore lint/suspicious/noExplicitAny: the default stands for any handle kind
export interface RedisHandle<Self extends RedisHandle<Self> = any> extends Locks {
  /** Every key lives under `<prefix>:`. */
  readonly prefix: string;
  /** The client, guarded: what it rejects with is always a `network_error` naming Redis. */
  readonly client: RedisClient;
  /** The Redis key of one of our names: `<prefix>:<kind>:<name>`. */
  key(kind: string, name: string): string;
  /** The same connection with every key under one tenant's prefix. */
  forTenant(tenant: TenantId): Self;
  /** Runs one of the Lua scripts defined on the client (`redis-scripts.ts`): EVALSHA, EVAL after a restart. */
  script(name: string, ...args: (string | number)[]): Promise<unknown>;
  /** A string and a hash by their full keys, in one round trip. */
  readValueAndHash(
    valueKey: string,
    hashKey: string,
  ): Promise<{ value: string | null; hash: Record<string, string> }>;
}
