import { StorageError, TamperedRecordError } from '../../errors/index.js';
import {
  type GuardRead,
  GuardReading,
  type GuardUpgrade,
  type ProvenGuard,
} from '../sealed/guard-reading.js';
import type { GuardSeal, GuardState, TenantGuard } from '../sealed/tenant-guard.js';
import type { RedisHandle } from './redis-handle.js';
import type { TenantDataKey } from './tenant-data-key.js';

/** Sets KEYS[2] to ARGV[3] only while KEYS[1] (the data key) holds ARGV[1] and KEYS[2] holds ARGV[2]; 1 when it did. */
const SET_IF_BOTH = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1`;

/**
 * A pre-guard tenant's upgrade (`GuardUpgrade`): only while KEYS[1] (the data
 * key) holds ARGV[1] and KEYS[2] (the guard) holds ARGV[2] ('' : absent),
 * sets the data key to ARGV[3] and, unless ARGV[4] is '', the guard to ARGV[4]; 1 when it did.
 */
const UPGRADE = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[2], ARGV[4]) end
return 1`;

/** Writers racing on one guard retry; past this many lost races something else is wrong. */
const MAX_ATTEMPTS = 20;

/**
 * One tenant's guard in Redis (`<tenant prefix>:guard:tenant`), beside its
 * data key (`<tenant prefix>:datakey:current`): both read with one MGET
 * (one round trip per request), the guard written with a compare-and-set
 * on both, so a write never lands on a data key it was not sealed with.
 */
export class RedisTenantGuard implements TenantGuard {
  private readonly reading: GuardReading;

  constructor(
    private readonly coordinator: RedisHandle,
    private readonly dataKey: TenantDataKey,
    private readonly seal: GuardSeal,
  ) {
    this.reading = new GuardReading(seal, dataKey.wrapping);
  }

  /** Where the guard is kept: made with the data key, erased with the tenant. */
  static keyOf(coordinator: RedisHandle): string {
    return coordinator.key('guard', 'tenant');
  }

  /**
   * The tenant's data key and guard in one MGET, and what they prove. A
   * tenant from an earlier toolsteps is upgraded on the way (`GuardUpgrade`):
   * of processes racing on it one write lands, the others read it again.
   */
  private async read(): Promise<GuardRead & ProvenGuard> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const [wrapped, guard] = (await this.coordinator.client.call(
        'MGET',
        this.dataKey.readAlong().key,
        RedisTenantGuard.keyOf(this.coordinator),
      )) as (string | null)[];
      const read = { wrapped: wrapped ?? null, guard: guard ?? null };
      const proven = this.reading.state(read);
      if (!proven.upgrade) return { ...read, ...proven };
      if (await this.apply(proven.upgrade)) {
        this.reading.upgraded(proven);
        return { wrapped: proven.upgrade.wrapped, guard: proven.upgrade.guard ?? read.guard, ...proven };
      }
    }
    throw this.raced();
  }

  private async apply(upgrade: GuardUpgrade): Promise<boolean> {
    const done = await this.coordinator.client.eval(
      UPGRADE,
      2,
      this.dataKey.readAlong().key,
      RedisTenantGuard.keyOf(this.coordinator),
      upgrade.read.wrapped ?? '',
      upgrade.read.guard ?? '',
      upgrade.wrapped,
      upgrade.guard ?? '',
    );
    return done === 1;
  }

  private raced(): StorageError {
    return new StorageError(
      `The revocations and limits under ${this.coordinator.prefix} changed under ${MAX_ATTEMPTS} writes in a row; try again.`,
    );
  }

  async state(): Promise<GuardState> {
    return (await this.read()).state;
  }

  async update(change: (state: GuardState) => Omit<GuardState, 'version'>): Promise<GuardState> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      // Makes the data key and the first guard when the tenant has none (erased meanwhile too).
      await this.dataKey.box(true);
      const { wrapped, guard, state, box } = await this.read();
      if (!box) continue;
      const next = { ...change(state), version: state.version + 1 };
      const sealed = this.seal.seal(box, next);
      const key = RedisTenantGuard.keyOf(this.coordinator);
      const done = await this.coordinator.client.eval(
        SET_IF_BOTH,
        2,
        this.dataKey.readAlong().key,
        key,
        wrapped ?? '',
        guard ?? '',
        sealed,
      );
      if (done === 1) {
        this.reading.saw(box, next.version);
        return next;
      }
    }
    throw this.raced();
  }

  /**
   * Upgrades a tenant whose data key an earlier toolsteps made, as any read
   * does (`connections rekey` calls it for every tenant, so none waits for
   * its first request). True when it sealed a first guard; a tenant whose
   * guard cannot be proven is left refused, not rekeyed into trust.
   */
  async upgrade(): Promise<boolean> {
    const [wrapped, guard] = (await this.coordinator.client.call(
      'MGET',
      this.dataKey.readAlong().key,
      RedisTenantGuard.keyOf(this.coordinator),
    )) as (string | null)[];
    try {
      const after = await this.read();
      return wrapped !== null && guard === null && after.guard !== null;
    } catch (error) {
      if (error instanceof TamperedRecordError) return false;
      throw error;
    }
  }
}
