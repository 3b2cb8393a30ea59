import type { TenantId } from '../../model/tenant-id.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { WrappedDataKey } from '../sealed/wrapped-data-key.js';
import type { KeySource } from './encrypted-records.js';
import type { RedisHandle } from './redis-handle.js';

/** Sets KEYS[1] to ARGV[2] only while it holds ARGV[1] ('' : only while absent); answers what it holds after. */
const SET_IF = `
local value = redis.call('GET', KEYS[1])
if (value or '') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return ARGV[2]
end
return value`;

/** Makes the data key (KEYS[1] = ARGV[1]) and its first guard (KEYS[2] = ARGV[2]) together, only while there is no data key; answers the data key after. */
const MAKE_WITH_GUARD = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[2], ARGV[2])
end
return redis.call('GET', KEYS[1])`;

/** The tenant's guard, made in the same write as its data key (`RedisTenantGuard`). */
export interface FirstGuard {
  key: string;
  /** The first guard's stored text, sealed with the new data key's box. */
  sealed(box: SecretBox): string;
}

/**
 * One tenant's data key in Redis (`<tenant prefix>:datakey:current`): 32
 * random bytes that seal the tenant's secrets, stored only wrapped with the
 * master key (`WrappedDataKey`, bound to the tenant and the key prefix).
 * Made on first use (the first writer wins; every worker then opens the
 * same one); rotating the master key re-wraps it (`rewrap`) and leaves the
 * records as they are; erasing the tenant deletes it (`destroy`), after
 * which nothing it sealed opens.
 */
export class TenantDataKey implements KeySource {
  /** How the stored key is wrapped: its guard reads which release made it (`GuardReading`). */
  readonly wrapping: WrappedDataKey;

  constructor(
    private readonly coordinator: RedisHandle,
    private readonly master: SecretBox,
    tenant: TenantId,
    /** Made with the data key, so a data key without its guard is never a state toolsteps wrote. */
    private readonly guard?: FirstGuard,
  ) {
    this.wrapping = new WrappedDataKey(master, tenant, coordinator.prefix);
  }

  private get key(): string {
    return this.coordinator.key('datakey', 'current');
  }

  /**
   * The tenant's box. A tenant without a data key gets one only for a write
   * (`forWriting`): reading an empty tenant makes nothing, and opens what
   * the master key sealed before data keys existed. The wrapped key is read
   * on every call (one GET), so a key another process re-made (after an
   * erasure, or a Redis that restarted empty) is the one used here too.
   */
  async box(forWriting = false): Promise<SecretBox> {
    let stored = await this.coordinator.client.get(this.key);
    if (stored === null) {
      if (!forWriting) return this.master;
      stored = await this.make();
    }
    return this.wrapping.boxOf(stored);
  }

  private async make(): Promise<string> {
    const fresh = this.wrapping.fresh();
    if (!this.guard) return (await this.coordinator.client.eval(SET_IF, 1, this.key, '', fresh)) as string;
    const guard = this.guard.sealed(this.wrapping.boxOf(fresh));
    return (await this.coordinator.client.eval(
      MAKE_WITH_GUARD,
      2,
      this.key,
      this.guard.key,
      fresh,
      guard,
    )) as string;
  }

  /** Where the wrapped key is, and what a value read there opens to, as `box()` answers a read. */
  readAlong(): { key: string; boxOf(stored: string | null): SecretBox } {
    return {
      key: this.key,
      boxOf: (stored) => (stored === null ? this.master : this.wrapping.boxOf(stored)),
    };
  }

  /** Wraps the data key with the current master key when an older one wrapped it; true when it did. */
  async rewrap(): Promise<boolean> {
    const stored = await this.coordinator.client.get(this.key);
    if (stored === null) return false;
    const next = this.wrapping.rewrapped(stored);
    if (next === undefined) return false;
    const now = await this.coordinator.client.eval(SET_IF, 1, this.key, stored, next);
    if (now !== next) return this.rewrap();
    return true;
  }

  /** Deletes the data key: what it sealed never opens again, here or from a copy of the records. */
  async destroy(): Promise<void> {
    await this.coordinator.client.del(this.key);
    this.wrapping.forget();
  }
}
