import type { CheckResult } from './check-results.js';
import type { ArmedFault } from './fault-arming.js';
import type { RecordedCall } from './recorded-call.js';

/** One run of a scenario: its verdict, every check, and the trajectory. */
export interface RunResult {
  run: number;
  passed: boolean;
  checks: CheckResult[];
  calls: RecordedCall[];
  faults: ArmedFault[];
  /** The agent's final words, when it gave any. */
  answer: string | null;
  durationMs: number;
}

/** A scenario's runs and its pass rate against the share it requires. */
export interface ScenarioResult {
  scenario: string;
  description: string | null;
  task: string;
  agent: string;
  runs: RunResult[];
  passRate: number;
  requiredPassRate: number;
  passed: boolean;
}

/** What `runEvaluation` answers and every report is written from. */
export interface EvalReport {
  tool: 'toolsteps eval';
  startedAt: string;
  durationMs: number;
  scenarios: ScenarioResult[];
  passed: boolean;
}
