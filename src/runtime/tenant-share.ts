import type { Coordinator } from '../coordination/coordinator.js';
import { CreditError, TenantLimitError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import { type Logger, silentLogger } from '../model/logger.js';
import type { TenantLimits } from '../model/tenant-limits.js';
import type { AnyStep, CreditEstimate } from '../step/define-step.js';
import type { TenantLimitStore } from '../store/limit-store.js';
import type { CreditReservation } from './shared-credit-budget.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** How long a worker keeps the limits it read: a change reaches every running worker within this. */
export const LIMITS_REFRESH_MS = 5000;

/**
 * A tenant's limits as a runtime reads them: from its store, kept
 * `LIMITS_REFRESH_MS` so the limits cost one read every few seconds, not
 * one per call. A read that fails fails the call (nothing is sent): an
 * unreadable limit is not taken for no limit.
 */
export class LimitsReader {
  private cached: { limits: TenantLimits; readAt: number } | undefined;

  constructor(
    private readonly store: TenantLimitStore | undefined,
    private readonly clock: Clock,
  ) {}

  /** Whether the tenant has a limit store at all: without one there is no limit, and nothing to read. */
  get configured(): boolean {
    return this.store !== undefined;
  }

  async current(): Promise<TenantLimits> {
    if (!this.store) return {};
    const now = Date.now();
    if (this.cached && now - this.cached.readAt < LIMITS_REFRESH_MS) return this.cached.limits;
    const limits = await this.store.get();
    this.cached = { limits, readAt: now };
    return limits;
  }

  /** The runtime's time, which the windows are counted in. */
  now(): number {
    return this.clock.now();
  }
}

/**
 * Stage 2a, before anything is sent: takes one call of the tenant's current
 * UTC minute and reserves the step's worst case of its UTC day's credits,
 * each in one atomic step of the coordinator (shared by every worker on one
 * Redis). A window is fixed, so a tenant may spend up to twice a minute's
 * calls across a minute's boundary. What the call did not spend is given
 * back by `settle`.
 * @throws TenantLimitError `tenant_limit_exceeded` (retryable, `retryAfterMs` until the window ends);
 *   CreditError `credit_budget_exceeded` for a call whose worst case no day's limit can cover.
 */
export async function takeTenantShare(
  coordinator: Coordinator,
  reader: LimitsReader,
  step: AnyStep,
  estimate: CreditEstimate | undefined,
  logger: Logger = silentLogger,
): Promise<CreditReservation | undefined> {
  const limits = await reader.current();
  const now = reader.now();
  const minute = Math.floor(now / MINUTE_MS);
  const callsKey = `tenant-calls:${minute}`;
  if (limits.callsPerMinute !== undefined) {
    const taken = await coordinator.addWithinLimit(callsKey, 1, limits.callsPerMinute, 2 * MINUTE_MS);
    if (!taken.added) {
      throw new TenantLimitError(
        `${step.id}: this tenant made its ${limits.callsPerMinute} calls of this minute (calls per minute). Nothing was sent.`,
        {
          retryAfterMs: (minute + 1) * MINUTE_MS - now,
          context: { limit: 'calls_per_minute', allowed: limits.callsPerMinute },
        },
      );
    }
  }
  if (limits.creditsPerDay === undefined || !estimate || estimate.max === 0) return undefined;
  try {
    return await reserveDayCredits(coordinator, step, estimate, limits.creditsPerDay, now, logger);
  } catch (error) {
    // Refused for its credits, the call was not made: its place in the minute goes back.
    if (limits.callsPerMinute !== undefined) {
      await coordinator.addWithinLimit(callsKey, -1, limits.callsPerMinute, 2 * MINUTE_MS).catch(() => {});
    }
    throw error;
  }
}

async function reserveDayCredits(
  coordinator: Coordinator,
  step: AnyStep,
  estimate: CreditEstimate,
  perDay: number,
  now: number,
  logger: Logger,
): Promise<CreditReservation> {
  if (!(estimate.max <= perDay)) {
    const cost = Number.isFinite(estimate.max) ? `up to ${estimate.max}` : 'an unbounded number of';
    throw new CreditError(
      `${step.id} may cost ${cost} credits, more than this tenant's ${perDay} credits per day. Nothing was sent.`,
      { code: 'credit_budget_exceeded', sent: false, context: { limit: 'credits_per_day', allowed: perDay } },
    );
  }
  const day = Math.floor(now / DAY_MS);
  const key = `tenant-credits:${new Date(day * DAY_MS).toISOString().slice(0, 10)}`;
  const taken = await coordinator.addWithinLimit(key, estimate.max, perDay, 2 * DAY_MS);
  if (!taken.added) {
    throw new TenantLimitError(
      `${step.id} may cost up to ${estimate.max} credits; this tenant has ${Math.max(0, perDay - taken.total)} of its ${perDay} credits of this UTC day left. Nothing was sent.`,
      {
        retryAfterMs: (day + 1) * DAY_MS - now,
        context: { limit: 'credits_per_day', allowed: perDay, used: taken.total },
      },
    );
  }
  return {
    settle: async (spent) => {
      const unused = estimate.max - Math.min(Math.max(spent, 0), estimate.max);
      if (unused <= 0) return;
      await coordinator.addWithinLimit(key, -unused, perDay, 2 * DAY_MS).catch((error: unknown) => {
        logger.warn("could not give unused credits back to the tenant's day", {
          unused,
          error: (error as Error).message,
        });
      });
    },
  };
}
