import * as z from 'zod';
import { TamperedRecordError } from '../../errors/index.js';
import type { TenantId } from '../../model/tenant-id.js';
import { TenantLimits } from '../../model/tenant-limits.js';
import type { SecretBox } from './secret-box.js';

/**
 * What a tenant's guard holds: the tokens revoked in the tenant (id -> until
 * when, ms) and its fair-share limits, under a version that grows with every
 * write. The store never holds them in the clear: see `GuardSeal`.
 */
export const GuardState = z
  .object({
    version: z.number().int().positive(),
    revoked: z.record(z.string(), z.number()),
    limits: TenantLimits,
  })
  .strict();
export type GuardState = z.infer<typeof GuardState>;

/** The guard a tenant's data key is made with: nothing revoked, no limits, version 1. */
export const FIRST_GUARD: GuardState = { version: 1, revoked: {}, limits: {} };

/** A tenant that never wrote anything (no data key, no guard): nothing revoked, no limits. */
export const NO_GUARD: GuardState = { version: 0, revoked: {}, limits: {} } as GuardState;

/**
 * One tenant's guard in a shared store (Redis, Postgres): read on every
 * request in one round trip with the data key that opens it, written with a
 * compare-and-set so two writers never lose each other's revocation.
 */
export interface TenantGuard {
  /** @throws TamperedRecordError when the guard cannot be proven (`GuardReading`). */
  state(): Promise<GuardState>;
  /** Writes `change(state)` as the next version; makes the data key and first guard when the tenant has none. */
  update(change: (state: GuardState) => Omit<GuardState, 'version'>): Promise<GuardState>;
}

/**
 * Seals and opens one tenant's guard with the tenant's data key, bound (in
 * the AES-GCM additional data) to the tenant and the store's namespace: a
 * store writer without the keys can delete it or put back an older sealed
 * copy, but not change it, make one, or move another tenant's in. What a
 * reader makes of a missing or older guard is `GuardReading`'s.
 */
export class GuardSeal {
  private opened: { stored: string; box: SecretBox; state: GuardState } | undefined;

  constructor(
    private readonly tenant: TenantId,
    /** The store the guard lives in (a Redis prefix, `postgres:<schema>`), as for the data key. */
    private readonly namespace: string,
  ) {}

  private get context(): string {
    return `revocations and limits of tenant ${this.tenant}`;
  }

  private get binding(): string {
    return JSON.stringify(['toolsteps-tenant-guard', '1', this.namespace, this.tenant]);
  }

  /** The stored text of `state`, sealed with the tenant's data key (`box` seals with it). */
  seal(box: SecretBox, state: GuardState): string {
    const sealed = box.seal(JSON.stringify(GuardState.parse(state)), this.context, this.binding);
    return JSON.stringify(sealed);
  }

  /**
   * The state a stored guard holds. Opened once per stored text and box: a
   * guard is read on every request, and the same bytes open the same way.
   * @throws TamperedRecordError `altered` when it was not sealed by this tenant's current data key for this tenant.
   */
  open(box: SecretBox, stored: string): GuardState {
    if (this.opened?.stored === stored && this.opened.box === box) return this.opened.state;
    let state: GuardState;
    try {
      const sealed = JSON.parse(stored) as { kid?: unknown; data?: unknown };
      // Only the data key seals a guard: a master-key seal would outlive the tenant's erasure.
      if (sealed.kid !== box.keyId || typeof sealed.data !== 'string') throw new Error('not this key');
      const text = box.open({ kid: sealed.kid, data: sealed.data }, this.context, this.binding);
      state = GuardState.parse(JSON.parse(text));
    } catch (error) {
      throw this.tampered('altered', error);
    }
    this.opened = { stored, box, state };
    return state;
  }

  tampered(problem: 'altered' | 'rolled_back', cause?: unknown): TamperedRecordError {
    return new TamperedRecordError(
      `The ${this.context} in the store are missing, older than this process has seen, or were not sealed for this tenant (changed outside toolsteps): every token of the tenant is refused and its limits are not read until they are restored (a tenant from a toolsteps without them gets a first, empty one by itself; this is not that).`,
      problem,
      { context: { record: this.context }, cause },
    );
  }
}
