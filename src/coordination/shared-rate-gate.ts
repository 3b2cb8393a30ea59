import { RateLimitError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { Logger } from '../model/logger.js';
import { type Gate, type RateLimitSnapshot, saneWindow } from '../model/rate-limit.js';
import type { Coordinator } from './coordinator.js';

export interface SharedRateGateOptions {
  clock: Clock;
  /** Longest wait accepted before failing with RateLimitError instead. */
  maxWaitMs: number;
  logger?: Logger;
}

/**
 * One rate gate for every worker using a connection: the quota the
 * provider's remaining/reset headers describe lives in the coordinator, each
 * request is counted there atomically before it is sent, and every answer
 * corrects the count. N workers together stay inside the provider's quota
 * instead of each spending all of it.
 */
export class SharedRateGate implements Gate {
  constructor(
    private readonly coordinator: Coordinator,
    private readonly scope: string,
    private readonly options: SharedRateGateOptions,
  ) {}

  async acquire(signal?: AbortSignal): Promise<number> {
    const { clock, maxWaitMs } = this.options;
    let waited = 0;
    for (;;) {
      const now = clock.now();
      // A Redis that cannot be asked fails here, nothing sent: the coordinator's network_error.
      const verdict = await this.coordinator.takeQuota(this.scope, now);
      if (verdict.allowed) return waited;
      const waitMs = verdict.retryAt - now;
      if (waitMs > maxWaitMs) {
        throw new RateLimitError(
          `The provider's quota, shared by every worker, is spent for another ${Math.ceil(waitMs / 1000)} s; that is longer than the ${maxWaitMs} ms this call may wait.`,
          { retryAfterMs: waitMs, sent: false },
        );
      }
      waited += 1;
      await clock.sleep(waitMs, signal);
    }
  }

  /** Folds an answer's windows into the shared quota; `settles` when it answers a request we let through. */
  private async report(snapshot: RateLimitSnapshot | undefined, settles: boolean): Promise<void> {
    const windows = (snapshot?.windows ?? []).flatMap((window) => {
      const sane = saneWindow(window, snapshot?.observedAt ?? this.options.clock.now());
      return sane ? [sane] : [];
    });
    if (!settles && windows.length === 0) return;
    // A lost report only makes the count more careful until the next answer; the call itself is done.
    await this.coordinator
      .observeQuota(this.scope, windows, this.options.clock.now(), settles)
      .catch((error: unknown) => {
        this.options.logger?.warn('could not update the shared rate limit', {
          scope: this.scope,
          error: (error as Error).message,
        });
      });
  }

  observe(snapshot: RateLimitSnapshot | undefined): Promise<void> {
    return this.report(snapshot, true);
  }

  learn(snapshot: RateLimitSnapshot | undefined): Promise<void> {
    return this.report(snapshot, false);
  }

  /** A request that got no answer leaves the flight; whether the provider counted it, the next answer says. */
  abandon(): Promise<void> {
    return this.report(undefined, true);
  }
}
