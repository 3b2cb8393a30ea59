import type { RedisCoordinator } from '../coordination/redis-coordinator.js';
import { StorageError } from '../errors/index.js';
import { GuardReading } from '../store/sealed/guard-reading.js';
import type { SecretBox } from '../store/sealed/secret-box.js';
import type { TenantDataKey } from '../store/sealed/tenant-data-key.js';
import {
  FIRST_GUARD,
  type GuardSeal,
  type GuardState,
  type TenantGuard,
} from '../store/sealed/tenant-guard.js';

/** Sets KEYS[2] to ARGV[3] only while KEYS[1] (the data key) holds ARGV[1] and KEYS[2] holds ARGV[2]; 1 when it did. */
const SET_IF_BOTH = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[2], ARGV[3])
return 1`;

/** Sets KEYS[2] to ARGV[2] only while KEYS[1] (the data key) holds ARGV[1] and KEYS[2] is absent; 1 when it did. */
const ADOPT = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
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
    private readonly coordinator: RedisCoordinator,
    private readonly dataKey: TenantDataKey,
    private readonly seal: GuardSeal,
  ) {
    this.reading = new GuardReading(seal, (wrapped) => dataKey.readAlong().boxOf(wrapped));
  }

  /** Where the guard is kept: made with the data key, erased with the tenant. */
  static keyOf(coordinator: RedisCoordinator): string {
    return coordinator.key('guard', 'tenant');
  }

  private async read(): Promise<{
    wrapped: string | null;
    guard: string | null;
    state: GuardState;
    box?: SecretBox;
  }> {
    const [wrapped, guard] = (await this.coordinator.client.call(
      'MGET',
      this.dataKey.readAlong().key,
      RedisTenantGuard.keyOf(this.coordinator),
    )) as (string | null)[];
    const read = { wrapped: wrapped ?? null, guard: guard ?? null };
    return { ...read, ...this.reading.state(read) };
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
    throw new StorageError(
      `The revocations and limits under ${this.coordinator.prefix} changed under ${MAX_ATTEMPTS} writes in a row; try again.`,
    );
  }

  /**
   * Seals a first, empty guard for a tenant whose data key has none (made by
   * an earlier toolsteps), as `connections rekey` does once after upgrading:
   * an operator's step, since a guard deleted by a writer looks the same.
   * True when it made one.
   */
  async adopt(): Promise<boolean> {
    const along = this.dataKey.readAlong();
    const key = RedisTenantGuard.keyOf(this.coordinator);
    const [wrapped, guard] = (await this.coordinator.client.call('MGET', along.key, key)) as (
      | string
      | null
    )[];
    if (!wrapped || guard) return false;
    const box = along.boxOf(wrapped);
    const made = await this.coordinator.client.eval(
      ADOPT,
      2,
      along.key,
      key,
      wrapped,
      this.seal.seal(box, FIRST_GUARD),
    );
    return made === 1;
  }
}
