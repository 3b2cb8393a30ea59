import type { RedisCoordinator } from '../../coordination/redis-coordinator.js';
import { EncryptionKeyError, TamperedRecordError } from '../../errors/index.js';
import type { TenantId } from '../../tenants/tenant-id.js';
import { newDataKey, SecretBox } from './secret-box.js';

/** Sets KEYS[1] to ARGV[2] only while it holds ARGV[1] ('' : only while absent); answers what it holds after. */
const SET_IF = `
local value = redis.call('GET', KEYS[1])
if (value or '') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return ARGV[2]
end
return value`;

/** A wrapped data key as stored: the master key's id and the sealed key. */
interface Wrapped {
  kid: string;
  data: string;
}

/**
 * One tenant's data key in Redis (`<tenant prefix>:datakey:current`): 32
 * random bytes that seal the tenant's secrets, stored only sealed with the
 * master key (`TOOLSTEPS_ENCRYPTION_KEY`) and bound to the tenant and the
 * key prefix, so a wrapped key copied to another tenant does not open.
 * Made on first use (the first writer wins; every worker then opens the
 * same one); rotating the master key re-wraps it (`rewrap`) and leaves the
 * records as they are; erasing the tenant deletes it (`destroy`), after
 * which nothing it sealed opens.
 */
export class TenantDataKey {
  private opened: { stored: string; box: SecretBox } | undefined;

  constructor(
    private readonly coordinator: RedisCoordinator,
    private readonly master: SecretBox,
    private readonly tenant: TenantId,
  ) {}

  private get key(): string {
    return this.coordinator.key('datakey', 'current');
  }

  private get context(): string {
    return `data key of tenant ${this.tenant}`;
  }

  private get binding(): string {
    return JSON.stringify(['toolsteps-data-key', '1', this.coordinator.prefix, this.tenant]);
  }

  /**
   * The tenant's box: seals with its data key, opens with it and the master
   * keys (`SecretBox.forDataKey`). A tenant without a data key gets one only
   * for a write (`forWriting`): reading an empty tenant makes nothing, and
   * opens what the master key sealed before data keys existed. The wrapped
   * key is read on every call (one GET) and unwrapped again only when it
   * changed, so a key another process re-made (after an erasure, or a
   * Redis that restarted empty) is the one used here too.
   */
  async box(forWriting = false): Promise<SecretBox> {
    let stored = await this.coordinator.client.get(this.key);
    if (stored === null) {
      if (!forWriting) return this.master;
      const fresh = this.wrap(newDataKey());
      stored = (await this.coordinator.client.eval(SET_IF, 1, this.key, '', fresh)) as string;
    }
    if (this.opened?.stored !== stored) {
      this.opened = { stored, box: SecretBox.forDataKey(this.unwrap(stored), this.master) };
    }
    return this.opened.box;
  }

  private wrap(dataKey: Buffer): string {
    const sealed = this.master.seal(dataKey.toString('base64'), this.context, this.binding);
    return JSON.stringify({ kid: sealed.kid, data: sealed.data } satisfies Wrapped);
  }

  /**
   * @throws EncryptionKeyError `wrong` when no master key we hold wrapped it.
   * @throws TamperedRecordError `altered` when it is not a key wrapped for this tenant.
   */
  private unwrap(stored: string): Buffer {
    let wrapped: Wrapped;
    try {
      wrapped = JSON.parse(stored) as Wrapped;
    } catch {
      wrapped = { kid: '', data: '' };
    }
    if (!this.master.holds(wrapped.kid)) {
      if (wrapped.kid) this.master.open(wrapped, this.context, this.binding);
      throw this.tampered();
    }
    try {
      return Buffer.from(this.master.open(wrapped, this.context, this.binding), 'base64');
    } catch (error) {
      if (error instanceof EncryptionKeyError) throw this.tampered(error);
      throw error;
    }
  }

  private tampered(cause?: unknown): TamperedRecordError {
    return new TamperedRecordError(
      `The ${this.context} in the store was not wrapped for this tenant (changed or copied outside toolsteps), so nothing of the tenant's is opened with it.`,
      'altered',
      { context: { record: this.context }, cause },
    );
  }

  /** Wraps the data key with the current master key when an older one wrapped it; true when it did. */
  async rewrap(): Promise<boolean> {
    const stored = await this.coordinator.client.get(this.key);
    if (stored === null || (JSON.parse(stored) as Wrapped).kid === this.master.keyId) return false;
    const next = this.wrap(this.unwrap(stored));
    const now = await this.coordinator.client.eval(SET_IF, 1, this.key, stored, next);
    if (now !== next) return this.rewrap();
    return true;
  }

  /** Deletes the data key: what it sealed never opens again, here or from a copy of the records. */
  async destroy(): Promise<void> {
    await this.coordinator.client.del(this.key);
    this.opened = undefined;
  }
}
