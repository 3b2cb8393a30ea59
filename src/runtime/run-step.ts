import { ZodError } from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { type CreditsSpent, isToolstepsError } from '../errors/index.js';
import type { AnyStep, CreditEstimate, StepContext } from '../step/define-step.js';
import { scrubError } from './scrub-error.js';
import { type ReplayDecision, settlingReplays } from './settle-replays.js';
import { unreadableAnswer } from './unreadable-answer.js';

export interface StepRun {
  raw: unknown;
  /** Credits the provider reported as charged; null when it said nothing. */
  charged: number | null;
  /** How the runtime found a write done, when `raw` is the output it settled on rather than the handler's. */
  replay?: ReplayDecision;
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

/** A write that may have landed says what to check before sending it again, in the step's own words when it has them. */
function withCheckHint(step: AnyStep, input: unknown, error: unknown): unknown {
  if (!isToolstepsError(error) || error.outcome !== 'unknown' || !step.checkHint) return error;
  const hint = step.checkHint(input);
  // Said in the message too: a caller that reads only the message must not send it again blindly.
  return hint === undefined
    ? error
    : error.with({ message: `${error.message} Outcome unknown: ${hint}`, outcome: 'unknown', hint });
}

/** What an invocation has spent so far, for its meta and for an error it fails with. */
export function creditsSpent(
  estimate: CreditEstimate | undefined,
  charged: number | null,
): CreditsSpent | undefined {
  return estimate ? { estimated: estimate, charged } : undefined;
}

/**
 * Stage 4: runs the step's handler with its context, its HTTP client bound
 * to the step's write-safety declaration (`onReplay`). A write the runtime
 * found done is the stage's outcome, read from the settling client once the
 * handler has returned or thrown, whatever the handler did with the failed
 * request (see `settlingReplays`). Otherwise whatever the handler throws
 * leaves as an error of the family, with the step's check hint when the
 * write may have landed, the connection's secrets redacted, and what was
 * spent attached.
 */
export async function runStep(
  step: AnyStep,
  input: unknown,
  context: RunContext,
  spending: { estimate: CreditEstimate | undefined; secrets: () => string[] },
): Promise<StepRun> {
  let charged: number | null = null;
  const full: StepContext = {
    ...context,
    reportCredits: (amount) => {
      charged = (charged ?? 0) + amount;
    },
  };
  const replays = settlingReplays(context.http, step, input, () => full);
  // A step that settles no replay gets its client as is: the handler's context is the full one.
  const handlerContext = replays.http === context.http ? full : { ...full, http: replays.http };
  let raw: unknown;
  try {
    raw = await step.run(input, handlerContext);
  } catch (error) {
    const settled = replays.verdict();
    if (settled) return { raw: settled.output, charged, replay: settled.replay };
    throw scrubError(
      withCheckHint(step, input, asFamilyError(step, error)),
      spending.secrets(),
      creditsSpent(spending.estimate, charged),
    );
  }
  const settled = replays.verdict();
  if (settled) return { raw: settled.output, charged, replay: settled.replay };
  return { raw, charged };
}
