import type { DedupeStore } from '../../store/dedupe-store.js';

export interface ClaimedEvent {
  key: string;
  token: string;
}

export interface ClaimHold {
  /** Stops renewing; the claim then lapses one lease later unless completed or released first. */
  stop(): void;
}

/**
 * Keeps a claim alive while its hand-off runs: a short lease, renewed every
 * `renewEveryMs` (real time) and never past `holdForMs`, the hand-off's
 * deadline. So the claim of a live process lasts as long as its hand-off
 * may, and the claim of a process that died (killed with -9, a lost host)
 * lapses within one lease: the provider's next delivery takes it over.
 * A renewal that finds the claim gone (a stall let it lapse and another
 * delivery took it) calls `onLost`; a renewal that fails is tried again at
 * the next tick, as the lease still runs.
 */
export function holdClaim(
  dedupe: DedupeStore,
  claimed: ClaimedEvent,
  timing: { leaseMs: number; renewEveryMs: number; holdForMs: number },
  onLost: () => void,
): ClaimHold {
  const until = Date.now() + timing.holdForMs;
  let renewing = false;
  const timer = setInterval(() => {
    if (Date.now() >= until) {
      clearInterval(timer);
      return;
    }
    if (renewing) return;
    renewing = true;
    dedupe
      .renew(claimed.key, claimed.token, timing.leaseMs)
      .then(
        (held) => {
          if (held) return;
          clearInterval(timer);
          onLost();
        },
        () => undefined,
      )
      .finally(() => {
        renewing = false;
      });
  }, timing.renewEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
