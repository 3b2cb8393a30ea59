import { EncryptionKeyError, TamperedRecordError } from '../../errors/index.js';
import type { TenantId } from '../../tenants/tenant-id.js';
import { newDataKey, SecretBox } from './secret-box.js';

/** A wrapped data key as stored: the master key's id and the sealed key. */
interface Wrapped {
  kid: string;
  data: string;
}

/**
 * How one tenant's data key is wrapped with the master key
 * (`TOOLSTEPS_ENCRYPTION_KEY`) and unwrapped again, whatever holds the
 * wrapped text (a Redis key, a Postgres row). The seal binds the store's
 * namespace and the tenant, so a wrapped key copied to another tenant, or
 * from one store into another, does not open.
 */
export class WrappedDataKey {
  private opened: { stored: string; box: SecretBox } | undefined;

  constructor(
    private readonly master: SecretBox,
    private readonly tenant: TenantId,
    /** The store the key lives in (a Redis prefix, `postgres:<schema>`). */
    private readonly namespace: string,
  ) {}

  private get context(): string {
    return `data key of tenant ${this.tenant}`;
  }

  private get binding(): string {
    return JSON.stringify(['toolsteps-data-key', '1', this.namespace, this.tenant]);
  }

  /** A new data key, wrapped: what a store writes when the tenant has none. */
  fresh(): string {
    return this.wrap(newDataKey());
  }

  /**
   * The box a stored wrapped key opens to: seals with the data key, opens
   * with it and the master keys (`SecretBox.forDataKey`), so records sealed
   * before data keys still open. Unwrapped once per stored text.
   */
  boxOf(stored: string): SecretBox {
    if (this.opened?.stored !== stored) {
      this.opened = { stored, box: SecretBox.forDataKey(this.unwrap(stored), this.master) };
    }
    return this.opened.box;
  }

  /** The stored key wrapped with the current master key, or undefined when it already is. */
  rewrapped(stored: string): string | undefined {
    if ((JSON.parse(stored) as Wrapped).kid === this.master.keyId) return undefined;
    return this.wrap(this.unwrap(stored));
  }

  /** Forgets the unwrapped key: after the store destroyed it. */
  forget(): void {
    this.opened = undefined;
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
}
