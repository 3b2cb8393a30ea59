import type { SecretBox } from './secret-box.js';
import { type GuardSeal, type GuardState, NO_GUARD } from './tenant-guard.js';

/** What one read found: the tenant's wrapped data key and its sealed guard, each `null` when absent. */
export interface GuardRead {
  wrapped: string | null;
  guard: string | null;
}

/**
 * What a store read of one tenant's guard proves, failing closed. A guard is
 * made in the same atomic write as the tenant's data key and never deleted
 * without it, and only the master key can make a data key, so:
 * - no data key and no guard: a tenant that never wrote (nothing revoked),
 *   unless this process saw a guard of the tenant before (then it was deleted);
 * - a data key without a guard, or a guard without a data key: deleted;
 * - a guard that does not open with the data key for this tenant: changed,
 *   made up, or moved from another tenant;
 * - a guard older than one this process read or wrote under the same data
 *   key: an older sealed copy put back (rolled back).
 * Each of these throws TamperedRecordError. What it cannot see is a rollback
 * served to a process that never read the newer guard (one started after
 * it); docs/security.md says so.
 */
export class GuardReading {
  /** The newest version this process saw, under which data key (its box's key id). */
  private seen: { dataKey: string; version: number } | undefined;

  constructor(
    private readonly seal: GuardSeal,
    private readonly boxOf: (wrapped: string) => SecretBox,
  ) {}

  /** The state `read` proves, and the box it opened with (none for a tenant that never wrote). */
  state(read: GuardRead): { state: GuardState; box?: SecretBox } {
    if (read.wrapped === null) {
      if (read.guard === null && this.seen === undefined) return { state: NO_GUARD };
      throw this.seal.tampered('altered');
    }
    if (read.guard === null) throw this.seal.tampered('altered');
    const box = this.boxOf(read.wrapped);
    const state = this.seal.open(box, read.guard);
    this.saw(box, state.version);
    return { state, box };
  }

  /** Raises the floor to `version` under `box`'s data key; refuses anything below it. */
  saw(box: SecretBox, version: number): void {
    const seen = this.seen;
    if (seen?.dataKey !== box.keyId || version > seen.version) {
      this.seen = { dataKey: box.keyId, version };
      return;
    }
    if (version < seen.version) throw this.seal.tampered('rolled_back');
  }
}
