import { CreditError } from '../errors/index.js';
import type { AnyStep, CreditEstimate } from '../step/define-step.js';

/**
 * Stage 2: a paid step whose worst case exceeds the invocation's credit
 * budget is refused before sending. Returns the estimate (for the result's
 * meta), or undefined for a step that costs nothing.
 * @throws CreditError `credit_budget_exceeded`.
 */
export function checkBudget(
  step: AnyStep,
  input: unknown,
  budget: number | undefined,
): CreditEstimate | undefined {
  const estimate = step.credits?.estimate(input);
  if (!estimate || budget === undefined || estimate.max <= budget) return estimate;
  const bounded = Number.isFinite(estimate.max);
  throw new CreditError(
    `${step.id} may cost ${bounded ? `up to ${estimate.max} credits` : 'an unbounded number of credits'} (${step.credits?.basis}); the budget is ${budget}. Nothing was sent.`,
    {
      code: 'credit_budget_exceeded',
      sent: false,
      // Unbounded is said in words and null, never as Infinity (which JSON cannot carry).
      context: { estimated: { min: estimate.min, max: bounded ? estimate.max : null }, budget },
    },
  );
}
