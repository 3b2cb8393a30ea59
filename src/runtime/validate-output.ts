import { fieldIssues, listIssues } from '../errors/field-issues.js';
import type { CreditsSpent } from '../errors/index.js';
import { redactDeep } from '../errors/index.js';
import type { AnyStep } from '../step/define-step.js';
import { scrubError } from './scrub-error.js';
import { unreadableAnswer } from './unreadable-answer.js';

/**
 * Stage 5: the handler's result must match the step's output schema, and
 * leaves with every secret of the connection redacted (a provider may echo
 * our credentials back, and they must not reach the agent). `redact` is
 * false when nothing the step read could hold a secret (no answer quoted one,
 * and neither did the input): walking every output would cost more than the
 * rest of the pipeline.
 * @throws OutputError naming the failing output fields.
 */
export function validateOutput(
  step: AnyStep,
  raw: unknown,
  options: { secrets: string[]; redact: boolean; credits: CreditsSpent | undefined },
): unknown {
  const { secrets, credits } = options;
  const checked = step.output.safeParse(raw);
  if (checked.success) return options.redact ? redactDeep(checked.data, secrets) : checked.data;
  const issues = fieldIssues(checked.error, 'output');
  const message = `${step.id} got an answer its output schema does not accept: ${listIssues(issues)}.`;
  throw scrubError(unreadableAnswer(step, message, issues, false), secrets, credits);
}
