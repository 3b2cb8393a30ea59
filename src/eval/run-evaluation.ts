import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Registry } from '../catalog/registry.js';
import { type Clock, systemClock } from '../model/clock.js';
import type { EvalAgent } from './eval-agent.js';
import { htmlReport } from './html-report.js';
import { junitReport } from './junit-report.js';
import { runScenario } from './run-scenario.js';
import type { Scenario } from './scenario.js';
import { loadScenarioFile } from './scenario-file.js';
import type { EvalReport } from './scenario-result.js';
import type { Twins } from './twins.js';

export interface RunEvaluationOptions {
  /** Scenarios, or paths of scenario files (YAML or JSON). */
  scenarios: readonly (Scenario | string)[];
  agent: EvalAgent;
  registry: Registry;
  /** The running twins: `sandboxTwins(await startSandbox(), { registry })` of `toolsteps/sandbox`. */
  twins: Twins;
  /** Overrides every scenario's `runs`. */
  runs?: number | undefined;
  /** Where to write report.json, report.xml (JUnit) and report.html; nothing is written when absent. */
  outDir?: string | undefined;
  clock?: Clock | undefined;
  /** Hears each scenario's result as it ends (the CLI prints a line). */
  onScenario?: (result: EvalReport['scenarios'][number]) => void;
}

/** The report's three files, written beside each other. */
export async function writeReports(
  report: EvalReport,
  outDir: string,
): Promise<{ json: string; junit: string; html: string }> {
  await mkdir(outDir, { recursive: true });
  const files = {
    json: path.join(outDir, 'report.json'),
    junit: path.join(outDir, 'report.xml'),
    html: path.join(outDir, 'report.html'),
  };
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files.junit, junitReport(report));
  await writeFile(files.html, htmlReport(report));
  return files;
}

/**
 * Runs scenarios against the twins with one agent: each scenario its runs,
 * each run from a fresh start, every tool call recorded and every check
 * evaluated; answers the report (and writes it when `outDir` is given).
 */
export async function runEvaluation(options: RunEvaluationOptions): Promise<EvalReport> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const scenarios: Scenario[] = [];
  for (const entry of options.scenarios) {
    scenarios.push(typeof entry === 'string' ? await loadScenarioFile(entry) : entry);
  }
  const results: EvalReport['scenarios'] = [];
  for (const scenario of scenarios) {
    const result = await runScenario(scenario, {
      registry: options.registry,
      twins: options.twins,
      agent: options.agent,
      runs: options.runs,
      clock,
    });
    options.onScenario?.(result);
    results.push(result);
  }
  const report: EvalReport = {
    tool: 'toolsteps eval',
    startedAt: new Date(started).toISOString(),
    durationMs: clock.now() - started,
    scenarios: results,
    passed: results.every((result) => result.passed),
  };
  if (options.outDir) await writeReports(report, options.outDir);
  return report;
}
