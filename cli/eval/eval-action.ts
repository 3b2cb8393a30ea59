import { InputError } from '../../src/errors/input-error.js';
import { commandAgent } from '../../src/eval/command-agent.js';
import type { EvalAgent } from '../../src/eval/eval-agent.js';
import { runEvaluation } from '../../src/eval/run-evaluation.js';
import type { ScenarioResult } from '../../src/eval/scenario-result.js';
import { cliRegistry } from '../cli-context.js';
import { loadSandbox } from '../library-sandbox.js';
import { printJson } from '../output.js';
import { loadAgentFile } from './eval-agent-file.js';
import { scenarioSchemaDocument } from './scenario-schema-document.js';

export interface EvalOptions {
  agent?: string;
  agentCommand?: string;
  runs?: string;
  out: string;
  schema?: boolean;
  json?: boolean;
}

function summaryLine(result: ScenarioResult): string {
  const verdict = result.passed ? 'PASS' : 'FAIL';
  const lines = [
    `${verdict} ${result.scenario}: ${result.runs.filter((run) => run.passed).length}/${result.runs.length} run(s) passed`,
  ];
  const failed = result.runs.find((run) => !run.passed);
  for (const check of failed?.checks.filter((entry) => !entry.passed) ?? [])
    lines.push(`  - ${check.name}: ${check.reason}`);
  return lines.join('\n');
}

async function agentOf(options: EvalOptions): Promise<EvalAgent> {
  if (options.agent) return loadAgentFile(options.agent);
  if (options.agentCommand) return commandAgent(options.agentCommand.split(/\s+/).filter(Boolean));
  throw new InputError(
    'Give the agent: --agent <file> (a scripted agent or a module) or --agent-command "<command>".',
    [{ path: 'agent', message: 'required' }],
  );
}

function runsOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1 || runs > 100)
    throw new InputError('--runs must be a whole number from 1 to 100.', [
      { path: 'runs', message: 'not 1 to 100' },
    ]);
  return runs;
}

/** `toolsteps eval <scenario...>`: the twins in this process, each scenario run, the reports written. */
export async function evalAction(
  scenarios: string[],
  given: EvalOptions,
  command?: { optsWithGlobals(): { json?: boolean } },
): Promise<void> {
  const options = { ...given, json: command?.optsWithGlobals().json ?? false };
  if (options.schema) {
    process.stdout.write(scenarioSchemaDocument());
    return;
  }
  if (!scenarios.length)
    throw new InputError('Name at least one scenario file.', [{ path: 'scenario', message: 'required' }]);
  const [agent, runs, registry, { startSandbox, sandboxTwins }] = await Promise.all([
    agentOf(options),
    runsOf(options.runs),
    cliRegistry(),
    loadSandbox(),
  ]);
  const sandbox = await startSandbox({ requestLogLimit: 0 });
  try {
    const report = await runEvaluation({
      scenarios,
      agent,
      registry,
      twins: sandboxTwins(sandbox, { registry }),
      runs,
      outDir: options.out,
      onScenario: (result) => {
        if (!options.json) process.stdout.write(`${summaryLine(result)}\n`);
      },
    });
    if (options.json) printJson(report);
    else process.stdout.write(`Reports: ${options.out}/report.json, report.xml, report.html\n`);
    if (!report.passed) process.exitCode = 1;
  } finally {
    await sandbox.close();
  }
}
