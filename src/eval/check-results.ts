import { isDeepStrictEqual } from 'node:util';
import { jsonP3 } from '../mapping/json-p3.js';
import { linearRegexFunctions } from '../mapping/linear-regex-functions.js';
import type { RecordedCall } from './recorded-call.js';
import type { CostChecks, StateCheck, TrajectoryChecks } from './scenario-checks.js';

/** One check's verdict, with the reason a person reads in the report when it fails. */
export interface CheckResult {
  kind: 'state' | 'trajectory' | 'cost' | 'run';
  name: string;
  passed: boolean;
  /** What was found, in words: why it failed, or what held. */
  reason: string;
}

let environment: import('json-p3').JSONPathEnvironment | undefined;

/** The state's nodes a check's JSONPath selects, with the linear-time regex functions the variables use. */
function select(path: string, state: unknown): unknown[] {
  if (!environment) {
    environment = new (jsonP3().JSONPathEnvironment)({ strict: true });
    const { match, search } = linearRegexFunctions();
    environment.functionRegister.set('match', match);
    environment.functionRegister.set('search', search);
  }
  return environment.query(path, state as never).values();
}

const show = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

/** A state check against the twin's state; a bad JSONPath fails the check with the parser's words. */
export function stateCheckResult(check: StateCheck, state: unknown): CheckResult {
  const name = check.name ?? `${check.twin} ${check.path}`;
  let nodes: unknown[];
  try {
    nodes = select(check.path, state);
  } catch (error) {
    return { kind: 'state', name, passed: false, reason: `bad JSONPath: ${(error as Error).message}` };
  }
  const fail = (reason: string): CheckResult => ({ kind: 'state', name, passed: false, reason });
  if (check.count !== undefined && nodes.length !== check.count)
    return fail(
      `expected ${check.count} match(es) of ${check.path} in ${check.twin}, found ${nodes.length}: ${show(nodes)}`,
    );
  if (check.min_count !== undefined && nodes.length < check.min_count)
    return fail(`expected at least ${check.min_count} match(es) of ${check.path}, found ${nodes.length}`);
  if (check.max_count !== undefined && nodes.length > check.max_count)
    return fail(
      `expected at most ${check.max_count} match(es) of ${check.path}, found ${nodes.length}: ${show(nodes)}`,
    );
  if (check.equals !== undefined) {
    if (nodes.length === 0) return fail(`expected ${show(check.equals)} at ${check.path}, found nothing`);
    const wrong = nodes.find((node) => !isDeepStrictEqual(node, check.equals));
    if (wrong !== undefined)
      return fail(`expected ${show(check.equals)} at ${check.path}, found ${show(wrong)}`);
  }
  if (check.at_most !== undefined) {
    const over = nodes.find((node) => typeof node !== 'number' || node > (check.at_most as number));
    if (over !== undefined)
      return fail(`expected at most ${check.at_most} at ${check.path}, found ${show(over)}`);
  }
  return { kind: 'state', name, passed: true, reason: `${nodes.length} match(es): ${show(nodes)}` };
}

const isWrite = (call: RecordedCall) => call.access !== 'read';
/** A call whose write may have landed: it succeeded, or failed after its request may have reached the provider. */
const mayHaveLanded = (call: RecordedCall) =>
  call.ok || call.error?.outcome === 'unknown' || call.error?.outcome === 'already_done';

/** The trajectory checks a scenario asks for, each its own verdict. */
export function trajectoryCheckResults(
  checks: TrajectoryChecks,
  calls: readonly RecordedCall[],
): CheckResult[] {
  const results: CheckResult[] = [];
  const add = (name: string, failure: string | undefined, held: string) =>
    results.push({ kind: 'trajectory', name, passed: !failure, reason: failure ?? held });
  if (checks.max_calls !== undefined) {
    add(
      `at most ${checks.max_calls} tool calls`,
      calls.length > checks.max_calls
        ? `${calls.length} tool calls, more than ${checks.max_calls}`
        : undefined,
      `${calls.length} tool calls`,
    );
  }
  if (checks.no_destructive) {
    const destructive = calls.find((call) => call.access === 'destructive');
    add(
      'no destructive step',
      destructive
        ? `call ${destructive.index} ran ${destructive.step}, a destructive step, with ${show(destructive.input)}`
        : undefined,
      'no destructive step was called',
    );
  }
  if (checks.no_repeated_writes) {
    const seen = new Map<string, RecordedCall>();
    let repeat: [RecordedCall, RecordedCall] | undefined;
    for (const call of calls.filter(isWrite)) {
      const key = `${call.step} ${JSON.stringify(call.input)}`;
      const first = seen.get(key);
      if (first && !repeat) repeat = [first, call];
      // A write refused before it could land (a 429, an invalid input) may be sent again.
      if (mayHaveLanded(call)) seen.set(key, call);
    }
    add(
      'no write repeated with the same input',
      repeat
        ? `calls ${repeat[0].index} and ${repeat[1].index} both ran ${repeat[1].step} with ${show(repeat[1].input)} (a duplicate write)`
        : undefined,
      'every write was sent once',
    );
  }
  for (const step of checks.forbidden_steps ?? []) {
    const call = calls.find((candidate) => candidate.step === step);
    add(`${step} not called`, call ? `call ${call.index} ran ${step}` : undefined, `${step} was not called`);
  }
  for (const step of checks.required_steps ?? []) {
    const call = calls.find((candidate) => candidate.step === step && candidate.ok);
    add(
      `${step} called`,
      call ? undefined : `${step} was never called successfully`,
      `call ${call?.index} ran ${step}`,
    );
  }
  return results;
}

/** Credits over the run, as the calls' meta reported them charged. */
export function costCheckResults(checks: CostChecks, calls: readonly RecordedCall[]): CheckResult[] {
  if (checks.max_credits === undefined) return [];
  const spent = calls.reduce((sum, call) => sum + call.credits, 0);
  const passed = spent <= checks.max_credits;
  return [
    {
      kind: 'cost',
      name: `at most ${checks.max_credits} credits`,
      passed,
      reason: passed
        ? `${spent} credits spent`
        : `${spent} credits spent, over the budget of ${checks.max_credits}`,
    },
  ];
}
