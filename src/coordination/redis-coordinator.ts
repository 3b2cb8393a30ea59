import { randomBytes } from 'node:crypto';
import { DEFAULT_TENANT, type TenantId } from '../model/tenant-id.js';
import type { RedisClient } from '../peers/redis-client.js';
import { RedisDedupeStore } from '../store/redis/redis-dedupe-store.js';
import type { RedisHandle } from '../store/redis/redis-handle.js';
import * as scripts from '../store/redis/redis-scripts.js';
import type {
  CoordinationStatus,
  Coordinator,
  HeldLock,
  QuotaObservation,
  QuotaVerdict,
} from './coordinator.js';
import { ForwardedDedupe } from './forwarded-dedupe.js';
import { guardRedis } from './guarded-redis.js';
import {
  IN_FLIGHT_EXPIRY_MS,
  IN_FLIGHT_POLL_MS,
  PROBE_PAUSE_MS,
  QUOTA_TTL_MS,
  REFILL_TOLERANCE_MS,
  RESET_TOLERANCE_MS,
} from './quota-rules.js';

export interface RedisCoordinatorOptions {
  /** Prefix of every key, so several deployments can share one Redis. Default `toolsteps`. */
  prefix?: string;
  /** Shown by `status()`; never holds a password. */
  where?: string;
  /** Set on a tenant's coordinator (`forTenant`): it shares the client of the one that made it, which closes it. */
  sharesClient?: boolean;
}

/** Where one tenant's keys live: `<prefix>:t:<tenant>`; the default tenant's stay under `<prefix>`, where they were before tenants. */
export function tenantKeyPrefix(prefix: string, tenant: TenantId): string {
  return tenant === DEFAULT_TENANT ? prefix : `${prefix}:t:${tenant}`;
}

type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

const newToken = () => randomBytes(16).toString('hex');

/**
 * The coordinator for many workers: every operation is one Redis command or
 * one Lua script, so it is atomic across processes and hosts. Keys live
 * under `<prefix>:`; values are tokens, counters and quota numbers, never a
 * secret (connection secrets are encrypted by their store). Every call,
 * the stores' included, goes through `client`, which turns any failure into
 * the documented retryable `network_error` (`guardRedis`).
 */
export class RedisCoordinator extends ForwardedDedupe implements Coordinator, RedisHandle<RedisCoordinator> {
  readonly mode = 'redis' as const;
  readonly prefix: string;
  /** The client, guarded: what it rejects with is always a `network_error` naming Redis. */
  readonly client: RedisClient;
  private readonly run: Record<string, ScriptRunner> = {};
  protected readonly records = new RedisDedupeStore(this);
  private readonly tenants = new Map<TenantId, RedisCoordinator>();

  constructor(
    client: RedisClient,
    private readonly options: RedisCoordinatorOptions = {},
  ) {
    super();
    this.client = guardRedis(client);
    this.prefix = options.prefix ?? 'toolsteps';
    // Scripts without a count of keys take it as their first argument: one key per event of a batch.
    const defined: Record<string, [number | undefined, string]> = {
      tsReleaseLock: [1, scripts.RELEASE_LOCK],
      tsExtendLock: [1, scripts.EXTEND_LOCK],
      tsClaimMany: [undefined, scripts.CLAIM_MANY],
      tsCompleteMany: [undefined, scripts.COMPLETE_MANY],
      tsRenewClaim: [1, scripts.RENEW_CLAIM],
      tsReleaseClaim: [1, scripts.RELEASE_CLAIM],
      tsMarkOnce: [1, scripts.MARK_ONCE],
      tsAddWithinLimit: [2, scripts.ADD_WITHIN_LIMIT],
      tsCompareAndSet: [1, scripts.COMPARE_AND_SET],
      tsTakeQuota: [2, scripts.TAKE_QUOTA],
      tsObserveQuota: [2, scripts.OBSERVE_QUOTA],
      tsReadValueAndHash: [2, scripts.READ_VALUE_AND_HASH],
    };
    for (const [name, [numberOfKeys, lua]] of Object.entries(defined)) {
      // defineCommand sends EVALSHA and falls back to EVAL after a restart emptied the script cache.
      this.client.defineCommand(name, numberOfKeys === undefined ? { lua } : { numberOfKeys, lua });
      this.run[name] = (this.client as unknown as Record<string, ScriptRunner>)[name] as ScriptRunner;
    }
  }

  /**
   * The coordinator of one tenant: the same client, every key under
   * `<prefix>:t:<tenant>:` (`tenantKeyPrefix`), so erasing a tenant is
   * deleting what is under its prefix.
   */
  forTenant(tenant: TenantId): RedisCoordinator {
    if (tenant === DEFAULT_TENANT) return this;
    let found = this.tenants.get(tenant);
    if (!found) {
      found = new RedisCoordinator(this.client, {
        ...this.options,
        prefix: tenantKeyPrefix(this.prefix, tenant),
        sharesClient: true,
      });
      this.tenants.set(tenant, found);
    }
    return found;
  }

  /** The Redis key of one of our names: `<prefix>:<kind>:<name>`. */
  key(kind: string, name: string): string {
    return `${this.prefix}:${kind}:${name}`;
  }

  script(name: string, ...args: (string | number)[]): Promise<unknown> {
    return (this.run[name] as ScriptRunner)(...args);
  }

  async tryLock(name: string, ttlMs: number): Promise<HeldLock | undefined> {
    const token = newToken();
    const taken = await this.client.set(this.key('lock', name), token, 'PX', ttlMs, 'NX');
    return taken === 'OK' ? { name, token } : undefined;
  }

  async extendLock(lock: HeldLock, ttlMs: number): Promise<boolean> {
    return (await this.script('tsExtendLock', this.key('lock', lock.name), lock.token, ttlMs)) === 1;
  }

  async releaseLock(lock: HeldLock): Promise<boolean> {
    return (await this.script('tsReleaseLock', this.key('lock', lock.name), lock.token)) === 1;
  }

  /** A quota's two keys, which its scripts always take together: the windows, and the one call in flight. */
  #quotaKeys(scope: string): [string, string] {
    return [this.key('quota', scope), this.key('quota-flight', scope)];
  }

  async takeQuota(scope: string, now: number): Promise<QuotaVerdict> {
    const retryAt = Number(
      await this.script(
        'tsTakeQuota',
        ...this.#quotaKeys(scope),
        now,
        QUOTA_TTL_MS,
        PROBE_PAUSE_MS,
        IN_FLIGHT_POLL_MS,
        Date.now(),
        IN_FLIGHT_EXPIRY_MS,
        newToken(),
      ),
    );
    return retryAt === 0 ? { allowed: true } : { allowed: false, retryAt };
  }

  async observeQuota(scope: string, windows: QuotaObservation[], now: number, settles: boolean) {
    const each = windows.flatMap((window) => [
      window.name,
      window.remaining,
      window.limit ?? '',
      window.resetAt ?? '',
    ]);
    await this.script(
      'tsObserveQuota',
      ...this.#quotaKeys(scope),
      now,
      QUOTA_TTL_MS,
      settles ? '1' : '0',
      RESET_TOLERANCE_MS,
      REFILL_TOLERANCE_MS,
      ...each,
    );
  }

  async addWithinLimit(key: string, amount: number, limit: number, ttlMs: number) {
    const [added, total] = (await this.script(
      'tsAddWithinLimit',
      this.key('count', key),
      this.key('count-ids', key),
      amount,
      limit,
      ttlMs,
      newToken(),
    )) as [number, string];
    return { added: added === 1, total: Number(total) };
  }

  /** A string and a hash by their full keys, in one round trip: a stored record's read with its tenant's data key. */
  async readValueAndHash(valueKey: string, hashKey: string) {
    const reply = (await this.script('tsReadValueAndHash', valueKey, hashKey)) as [string | null, string[]];
    return { value: reply[0] ?? null, hash: scripts.hashOfPairs(reply[1]) };
  }

  async getValue(key: string): Promise<string | undefined> {
    return (await this.client.get(this.key('kv', key))) ?? undefined;
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(this.key('kv', key), value, 'PX', ttlMs);
  }

  async compareAndSet(key: string, expected: string | undefined, next: string, ttlMs: number) {
    const given = expected === undefined ? '0' : '1';
    return (
      (await this.script('tsCompareAndSet', this.key('kv', key), expected ?? '', next, ttlMs, given)) === 1
    );
  }

  async status(): Promise<CoordinationStatus> {
    const where = this.options.where ?? 'redis';
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        this.client.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
        }),
      ]);
      return { mode: 'redis', reachable: answer === 'PONG', where };
    } catch (error) {
      // The client's own words (the guard's message names Redis, which `where` already does).
      const said = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error);
      return { mode: 'redis', reachable: false, where, detail: said.message };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.options.sharesClient) return;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
