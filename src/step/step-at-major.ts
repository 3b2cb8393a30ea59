import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { InputError, OutputError } from '../errors/index.js';
import type { AnyStep } from './define-step.js';
import type { AnyEarlierMajor } from './earlier-major.js';
import { keptPerMajor } from './kept-per-major.js';
import type { StepContext } from './step-context.js';
import { latestMajor, referenceOf } from './step-version.js';

/** Every major a step serves, latest first. */
export function servedMajors(step: AnyStep): number[] {
  return [latestMajor(step), ...(step.earlier ?? []).map((major) => latestMajor(major))];
}

const built = new WeakMap<AnyStep, Map<number, AnyStep>>();

/**
 * The step as its earlier major `major` offers it, or undefined when it
 * serves none such: the old schemas, mapping and examples, its id written
 * `id@major` (so errors, spans and tool names say which major ran), and a
 * handler that migrates the input up, runs the latest handler and migrates
 * its checked output back down. Built once per step and major.
 */
export function stepAtEarlierMajor(step: AnyStep, major: number): AnyStep | undefined {
  return keptPerMajor(built, step, step.earlier, major, (earlier) => buildEarlier(step, earlier, major));
}

function buildEarlier(latest: AnyStep, earlier: AnyEarlierMajor, major: number): AnyStep {
  // Not a `StepId` to the compiler (it carries `@major`), and never one a step file declares.
  const id = referenceOf(latest.id, major) as AnyStep['id'];
  // The old input, validated by the runtime against the old schema, as the latest handler takes it.
  const upgrade = (input: unknown): unknown => {
    const checked = latest.input.safeParse(earlier.upgradeInput(input));
    if (checked.success) return checked.data;
    const issues = fieldIssues(checked.error, 'input');
    throw new InputError(
      `${id}: this input has no form in major ${latestMajor(latest)}: ${listIssues(issues)}.`,
      issues,
    );
  };
  // The latest handler's answer, checked by its own schema before it is reshaped for the old one.
  const downgrade = (output: unknown): unknown => {
    const checked = latest.output.safeParse(output);
    if (checked.success) return earlier.downgradeOutput(checked.data);
    const issues = fieldIssues(checked.error, 'output');
    throw new OutputError(
      `${latest.id} got an answer its output schema does not accept: ${listIssues(issues)}.`,
      issues,
    );
  };
  const { alreadyDone, reconcile, checkHint, credits } = latest;
  const step: AnyStep = {
    ...latest,
    id,
    aliases: undefined,
    version: earlier.version,
    changelog: earlier.changelog,
    deprecated: earlier.deprecated,
    earlier: undefined,
    input: earlier.input,
    output: earlier.output,
    variables: earlier.variables,
    examples: earlier.examples,
    // Choices and account fields are declared against the latest input's field names.
    options: undefined,
    accountSchema: undefined,
    credits: credits && {
      basis: credits.basis,
      estimate: (input: unknown) => credits.estimate(upgrade(input)),
    },
    alreadyDone:
      alreadyDone &&
      ((input: unknown, context: StepContext) => downgrade(alreadyDone(upgrade(input), context))),
    reconcile:
      reconcile &&
      (async (input: unknown, context: StepContext) => {
        const found = await reconcile(upgrade(input), context);
        return found === undefined ? undefined : downgrade(found);
      }),
    checkHint: checkHint && ((input: unknown) => checkHint(upgrade(input))),
    async run(input: unknown, context: StepContext) {
      return downgrade(await latest.run(upgrade(input), context));
    },
  };
  return Object.freeze(step);
}
