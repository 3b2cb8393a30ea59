import { EncryptionKeyError, TamperedRecordError } from '../../errors/index.js';
import type { TenantId } from '../../model/tenant-id.js';
import { newDataKey, SecretBox } from './secret-box.js';

/** A wrapped data key as stored: the master key's id and the sealed key. */
interface Wrapped {
  kid: string;
  data: string;
}

/**
 * Which release wrapped a data key, sealed into the wrap's binding (the
 * AES-GCM additional data), so only the master key can say it: '2' for a key
 * made with the tenant's guard (`TenantGuard`), '1' for a key made before
 * guards existed, which may lawfully have none.
 */
export type KeyGeneration = '1' | '2';

/**
 * How one tenant's data key is wrapped with the master key
 * (`TOOLSTEPS_ENCRYPTION_KEY`) and unwrapped again, whatever holds the
 * wrapped text (a Redis key, a Postgres row). The seal binds the store's
 * namespace and the tenant, so a wrapped key copied to another tenant, or
 * from one store into another, does not open.
 */
export class WrappedDataKey {
  private opened: { stored: string; box: SecretBox; generation: KeyGeneration } | undefined;

  constructor(
    private readonly master: SecretBox,
    private readonly tenant: TenantId,
    /** The store the key lives in (a Redis prefix, `postgres:<schema>`). */
    private readonly namespace: string,
  ) {}

  private get context(): string {
    return `data key of tenant ${this.tenant}`;
  }

  private binding(generation: KeyGeneration): string {
    return JSON.stringify(['toolsteps-data-key', generation, this.namespace, this.tenant]);
  }

  /** A new data key, wrapped as made with a guard: what a store writes, with the first guard, when the tenant has none. */
  fresh(): string {
    return this.wrap(newDataKey(), '2');
  }

  /**
   * The box a stored wrapped key opens to: seals with the data key, opens
   * with it and the master keys (`SecretBox.forDataKey`), so records sealed
   * before data keys still open. Unwrapped once per stored text.
   */
  boxOf(stored: string): SecretBox {
    return this.opening(stored).box;
  }

  /** Which release wrapped the stored key: '1' before guards, '2' with one. */
  generationOf(stored: string): KeyGeneration {
    return this.opening(stored).generation;
  }

  /**
   * The same data key wrapped as made with a guard ('2'), for the write that
   * seals a pre-guard tenant's first guard (`GuardUpgrade`): the records and
   * the guard it sealed open as before, since the key itself is unchanged.
   */
  upgraded(stored: string): string {
    return this.wrap(this.unwrap(stored).key, '2');
  }

  /** The stored key wrapped with the current master key (same generation), or undefined when it already is. */
  rewrapped(stored: string): string | undefined {
    if ((JSON.parse(stored) as Wrapped).kid === this.master.keyId) return undefined;
    const { key, generation } = this.unwrap(stored);
    return this.wrap(key, generation);
  }

  private opening(stored: string): { box: SecretBox; generation: KeyGeneration } {
    if (this.opened?.stored !== stored) {
      const { key, generation } = this.unwrap(stored);
      this.opened = { stored, box: SecretBox.forDataKey(key, this.master), generation };
    }
    return this.opened;
  }

  /** Forgets the unwrapped key: after the store destroyed it. */
  forget(): void {
    this.opened = undefined;
  }

  private wrap(dataKey: Buffer, generation: KeyGeneration): string {
    const sealed = this.master.seal(dataKey.toString('base64'), this.context, this.binding(generation));
    return JSON.stringify({ kid: sealed.kid, data: sealed.data } satisfies Wrapped);
  }

  /**
   * @throws EncryptionKeyError `wrong` when no master key we hold wrapped it.
   * @throws TamperedRecordError `altered` when it is not a key wrapped for this tenant.
   */
  private unwrap(stored: string): { key: Buffer; generation: KeyGeneration } {
    let wrapped: Wrapped;
    try {
      wrapped = JSON.parse(stored) as Wrapped;
    } catch {
      wrapped = { kid: '', data: '' };
    }
    if (!this.master.holds(wrapped.kid)) {
      if (wrapped.kid) this.master.open(wrapped, this.context, this.binding('2'));
      throw this.tampered();
    }
    let failure: unknown;
    // Newest first: a key made with a guard must never open as one made before guards.
    for (const generation of ['2', '1'] as const) {
      try {
        const text = this.master.open(wrapped, this.context, this.binding(generation));
        return { key: Buffer.from(text, 'base64'), generation };
      } catch (error) {
        if (!(error instanceof EncryptionKeyError)) throw error;
        failure = error;
      }
    }
    throw this.tampered(failure);
  }

  private tampered(cause?: unknown): TamperedRecordError {
    return new TamperedRecordError(
      `The ${this.context} in the store was not wrapped for this tenant (changed or copied outside toolsteps), so nothing of the tenant's is opened with it.`,
      'altered',
      { context: { record: this.context }, cause },
    );
  }
}
