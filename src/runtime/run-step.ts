import { ZodError } from 'zod';
import type { CreditsSpent } from '../errors.js';
import type { AnyStep, CreditEstimate, StepContext } from '../step.js';
import { fieldIssues, listIssues } from './field-issues.js';
import { scrubError } from './scrub-error.js';
import { unreadableAnswer } from './unreadable-answer.js';

export interface StepRun {
  raw: unknown;
  /** Credits the provider reported as charged; null when it said nothing. */
  charged: number | null;
}

/** What the runtime gives a step beyond its input; `reportCredits` is added here. */
export type RunContext = Omit<StepContext, 'reportCredits'>;

/** Keeps everything a step throws inside the error family: a stray ZodError is an unreadable answer. */
function asFamilyError(step: AnyStep, error: unknown): unknown {
  if (!(error instanceof ZodError)) return error;
  const issues = fieldIssues(error, 'answer');
  // A read whose answer was garbled may read better the next time; a write must not be sent again.
  return unreadableAnswer(
    step,
    `${step.id} got an answer it could not read: ${listIssues(issues)}.`,
    issues,
    true,
  );
}

/** What an invocation has spent so far, for its meta and for an error it fails with. */
export function creditsSpent(
  estimate: CreditEstimate | undefined,
  charged: number | null,
): CreditsSpent | undefined {
  return estimate ? { estimated: estimate, charged } : undefined;
}

/**
 * Stage 4: runs the step's handler with its context. Whatever it throws
 * leaves as an error of the family, with the connection's secrets redacted
 * and what was spent attached.
 */
export async function runStep(
  step: AnyStep,
  input: unknown,
  context: RunContext,
  spending: { estimate: CreditEstimate | undefined; secrets: () => string[] },
): Promise<StepRun> {
  let charged: number | null = null;
  try {
    const raw = await step.run(input, {
      ...context,
      reportCredits: (amount) => {
        charged = (charged ?? 0) + amount;
      },
    });
    return { raw, charged };
  } catch (error) {
    throw scrubError(
      asFamilyError(step, error),
      spending.secrets(),
      creditsSpent(spending.estimate, charged),
    );
  }
}
