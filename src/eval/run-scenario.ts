import { AgentTools } from '../agents/agent-tools.js';
import type { Registry } from '../catalog/registry.js';
import { type Clock, systemClock } from '../model/clock.js';
import { MemoryConnectionStore } from '../store/memory/memory-connection-store.js';
import { CallRecorder } from './call-recorder.js';
import {
  type CheckResult,
  costCheckResults,
  stateCheckResult,
  trajectoryCheckResults,
} from './check-results.js';
import type { EvalAgent } from './eval-agent.js';
import { evalSession } from './eval-session.js';
import { FaultSchedule } from './fault-arming.js';
import { RecordingRuntime } from './recording-runtime.js';
import type { Scenario } from './scenario.js';
import type { RunResult, ScenarioResult } from './scenario-result.js';
import { TwinClient } from './twin-client.js';
import type { Twins } from './twins.js';

export interface RunScenarioOptions {
  registry: Registry;
  twins: Twins;
  agent: EvalAgent;
  /** Overrides the scenario's own `runs`. */
  runs?: number | undefined;
  clock?: Clock | undefined;
}

/** Starts the twins afresh: reset, then each twin's seed. */
async function prepareTwins(client: TwinClient, scenario: Scenario): Promise<void> {
  await client.reset();
  for (const [twin, seed] of Object.entries(scenario.twins)) await client.seed(twin, seed);
}

/** The agent's run, stopped when the scenario's time is up; its failure is a failed `run` check, not a crash. */
async function runAgent(
  agent: EvalAgent,
  session: Parameters<EvalAgent['run']>[0],
  controller: AbortController,
  timeoutMs: number,
) {
  const timer = setTimeout(
    () => controller.abort(new Error(`the run took longer than ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    const answer = await Promise.race([
      agent.run(session),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
      ),
    ]);
    return { answer: answer?.text ?? null, failure: undefined };
  } catch (error) {
    return { answer: null, failure: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function runOnce(scenario: Scenario, run: number, options: RunScenarioOptions): Promise<RunResult> {
  const clock = options.clock ?? systemClock;
  const client = new TwinClient(options.twins.url);
  await prepareTwins(client, scenario);
  const store = new MemoryConnectionStore();
  for (const connection of await options.twins.connect(scenario.connections)) await store.put(connection);
  const faults = new FaultSchedule(scenario.faults);
  const recorder = new CallRecorder(client, faults, clock, scenario.limits.max_calls);
  const runtime = new RecordingRuntime({ store, clock }, recorder);
  const agentTools = await AgentTools.load({
    registry: options.registry,
    runtime,
    integrations: scenario.connections,
    steps: scenario.tools.steps,
    readOnly: scenario.tools.read_only,
    creditBudget: scenario.tools.credit_budget,
  });
  const controller = new AbortController();
  const session = evalSession({
    scenario: scenario.name,
    run,
    task: scenario.task,
    mode: scenario.tools.mode,
    agentTools,
    signal: controller.signal,
  });
  const started = clock.now();
  const { answer, failure } = await runAgent(options.agent, session, controller, scenario.limits.timeout_ms);
  const durationMs = clock.now() - started;
  await client.settleWebhooks().catch(() => undefined);
  const checks: CheckResult[] = [];
  if (failure)
    checks.push({
      kind: 'run',
      name: 'the agent finished',
      passed: false,
      reason: `the agent failed: ${failure}`,
    });
  for (const check of scenario.checks.state)
    checks.push(stateCheckResult(check, await client.state(check.twin)));
  checks.push(...trajectoryCheckResults(scenario.checks.trajectory, recorder.calls));
  checks.push(...costCheckResults(scenario.checks.cost, recorder.calls));
  return {
    run,
    passed: checks.every((check) => check.passed),
    checks,
    calls: recorder.calls,
    faults: faults.armed,
    answer,
    durationMs,
  };
}

/**
 * Runs one scenario `runs` times on the twins, each run from a fresh
 * start (reset, seed, new connections), and scores it by its pass rate.
 */
export async function runScenario(scenario: Scenario, options: RunScenarioOptions): Promise<ScenarioResult> {
  const runs: RunResult[] = [];
  const count = options.runs ?? scenario.runs;
  for (let run = 1; run <= count; run += 1) runs.push(await runOnce(scenario, run, options));
  const passRate = runs.filter((result) => result.passed).length / runs.length;
  return {
    scenario: scenario.name,
    description: scenario.description ?? null,
    task: scenario.task.text,
    agent: options.agent.name,
    runs,
    passRate,
    requiredPassRate: scenario.pass_rate,
    passed: passRate >= scenario.pass_rate,
  };
}
