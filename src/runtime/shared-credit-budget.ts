import type { Coordinator } from '../coordination/coordinator.js';
import { CreditError, isToolstepsError } from '../errors/index.js';
import { type Logger, silentLogger } from '../model/logger.js';
import type { AnyStep, CreditEstimate } from '../step/define-step.js';

/**
 * A credit budget several invocations draw from, across workers when the
 * runtime's coordinator is Redis: an agent run, a tenant's day. `pool`
 * names it; the total lives `ttlMs` after its last use (default 24 h).
 */
export interface SharedCreditBudget {
  pool: string;
  limit: number;
  ttlMs?: number;
}

/** What one invocation holds of a shared budget until it knows what it spent. */
export interface CreditReservation {
  /**
   * Keeps what was spent and gives the rest of the worst case back. Never
   * throws: the call is over by then, so a give-back the coordinator does
   * not take (Redis away) is logged and leaves the worst case counted until
   * the budget's TTL, stricter than needed but never overspent.
   */
  settle(spent: number): Promise<void>;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Stage 2b: before sending, a paid step reserves its worst case from the
 * shared budget in one atomic step (so two workers never both spend its
 * last credits), or is refused with nothing sent.
 * @throws CreditError `credit_budget_exceeded`; the coordinator's `network_error` when Redis is away.
 */
export async function reserveSharedCredits(
  coordinator: Coordinator,
  step: AnyStep,
  estimate: CreditEstimate | undefined,
  budget: SharedCreditBudget | undefined,
  logger: Logger = silentLogger,
): Promise<CreditReservation | undefined> {
  if (!budget || !estimate || estimate.max === 0) return undefined;
  const key = `credits:${budget.pool}`;
  const ttlMs = budget.ttlMs ?? DAY_MS;
  const bounded = Number.isFinite(estimate.max);
  const taken = bounded
    ? await coordinator.addWithinLimit(key, estimate.max, budget.limit, ttlMs)
    : { added: false, total: Number.NaN };
  if (!taken.added) {
    throw new CreditError(
      `${step.id} may cost ${bounded ? `up to ${estimate.max} credits` : 'an unbounded number of credits'}; the shared budget "${budget.pool}" has ${bounded ? `${Math.max(0, budget.limit - taken.total)} of ${budget.limit}` : `a limit of ${budget.limit}`} left. Nothing was sent.`,
      {
        code: 'credit_budget_exceeded',
        sent: false,
        context: {
          pool: budget.pool,
          budget: budget.limit,
          estimated: { min: estimate.min, max: bounded ? estimate.max : null },
        },
      },
    );
  }
  return {
    settle: async (spent) => {
      const unused = estimate.max - Math.min(Math.max(spent, 0), estimate.max);
      if (unused <= 0) return;
      await coordinator.addWithinLimit(key, -unused, budget.limit, ttlMs).catch((error: unknown) => {
        logger.warn('could not give unused credits back to the shared budget', {
          pool: budget.pool,
          unused,
          error: (error as Error).message,
        });
      });
    },
  };
}

/**
 * What a finished or failed invocation spent, for settling its reservation:
 * what the provider reported; nothing for a call never sent; otherwise the
 * worst case, since an unreported charge may have been made.
 */
export function creditsToKeep(estimate: CreditEstimate, charged: number | null, error?: unknown): number {
  if (error === undefined) return charged ?? estimate.max;
  if (isToolstepsError(error)) {
    if (error.credits?.charged !== undefined && error.credits.charged !== null) return error.credits.charged;
    if (error.sent === false) return 0;
  }
  return estimate.max;
}
