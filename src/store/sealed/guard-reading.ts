import type { SecretBox } from './secret-box.js';
import { FIRST_GUARD, type GuardSeal, type GuardState, NO_GUARD } from './tenant-guard.js';
import type { KeyGeneration } from './wrapped-data-key.js';

/** What one read found: the tenant's wrapped data key and its sealed guard, each `null` when absent. */
export interface GuardRead {
  wrapped: string | null;
  guard: string | null;
}

/**
 * The one write that brings a tenant whose data key an earlier toolsteps
 * made under a guard: while the store still holds exactly what was read
 * (`read`), the same data key wrapped as made with a guard (`wrapped`) and,
 * when it had none, a first, empty guard (`guard`). A store applies it
 * atomically (compare-and-set) or not at all, then the reader reads again.
 */
export interface GuardUpgrade {
  read: GuardRead;
  wrapped: string;
  guard: string | null;
}

/** What a read proves: the state, the box it opened with (none for a tenant that never wrote), and the upgrade it still needs. */
export interface ProvenGuard {
  state: GuardState;
  box?: SecretBox;
  upgrade?: GuardUpgrade;
}

/** How the tenant's wrapped data key opens (`WrappedDataKey`). */
export interface DataKeyWrapping {
  boxOf(wrapped: string): SecretBox;
  generationOf(wrapped: string): KeyGeneration;
  upgraded(wrapped: string): string;
}

/**
 * What a store read of one tenant's guard proves, failing closed. A guard is
 * made in the same atomic write as the tenant's data key, whose wrap says,
 * under the master key, that it was made with one (generation '2'), and is
 * never deleted without it, so:
 * - no data key and no guard: a tenant that never wrote (nothing revoked),
 *   unless this process saw a guard of the tenant before (then it was deleted);
 * - a '2' data key without a guard, or a guard without a data key: deleted;
 * - a '1' data key (made before guards) without a guard: a tenant from an
 *   earlier toolsteps, upgraded with a first, empty guard (`GuardUpgrade`),
 *   unless this process saw a guard or a '2' key of the tenant (then refused);
 * - a '1' data key after this process saw a '2' one: a pre-upgrade copy put back;
 * - a guard that does not open with the data key for this tenant: changed,
 *   made up, or moved from another tenant;
 * - a guard older than one this process read or wrote under the same data
 *   key: an older sealed copy put back (rolled back).
 * Each refusal throws TamperedRecordError. What it cannot see is a rollback
 * served to a process that never read the newer state (one started after
 * it); docs/security.md says so.
 */
export class GuardReading {
  /** The newest version this process saw, under which data key (its box's key id). */
  private seen: { dataKey: string; version: number } | undefined;
  /** Whether this process saw the tenant's data key wrapped as made with a guard. */
  private sawGuardedKey = false;

  constructor(
    private readonly seal: GuardSeal,
    private readonly wrapping: DataKeyWrapping,
  ) {}

  /** What `read` proves; throws when it proves nothing (see the class). */
  state(read: GuardRead): ProvenGuard {
    if (read.wrapped === null) {
      if (read.guard === null && this.seen === undefined) return { state: NO_GUARD };
      throw this.seal.tampered('altered');
    }
    const box = this.wrapping.boxOf(read.wrapped);
    const generation = this.wrapping.generationOf(read.wrapped);
    if (generation === '1' && this.sawGuardedKey) throw this.seal.tampered('rolled_back');
    if (generation === '2') this.sawGuardedKey = true;
    if (read.guard === null) {
      if (generation === '2' || this.seen !== undefined) throw this.seal.tampered('altered');
      const guard = this.seal.seal(box, FIRST_GUARD);
      return {
        state: FIRST_GUARD,
        box,
        upgrade: { read, wrapped: this.wrapping.upgraded(read.wrapped), guard },
      };
    }
    const state = this.seal.open(box, read.guard);
    this.saw(box, state.version);
    if (generation === '2') return { state, box };
    // A guard beside a pre-guard key (sealed by `connections rekey` before): the key says so from now on.
    return { state, box, upgrade: { read, wrapped: this.wrapping.upgraded(read.wrapped), guard: null } };
  }

  /** After the store applied `proven.upgrade`: the tenant's key is a '2' one, its guard at the proven version. */
  upgraded(proven: ProvenGuard): void {
    this.sawGuardedKey = true;
    if (proven.box) this.saw(proven.box, proven.state.version);
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
