import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../../src/eval/run-scenario.js';
import type { Scenario } from '../../src/eval/scenario.js';
import { loadScenarioFile } from '../../src/eval/scenario-file.js';
import { useEvalTwins } from './eval-twins.js';
import { STARTER_AGENTS } from './starter-agents.js';

const FOLDER = 'docs/examples/eval/scenarios';
const fixture = useEvalTwins();

describe.each(Object.entries(STARTER_AGENTS))('the starter scenario %s', (name, agents) => {
  let scenario: Scenario;
  beforeAll(async () => {
    scenario = await loadScenarioFile(path.join(FOLDER, `${name}.yaml`));
  });

  it('passes with the scripted agent written to pass it', async () => {
    const result = await runScenario(scenario, {
      registry: fixture.registry,
      twins: fixture.twins,
      agent: agents.pass,
    });
    const failed = result.runs[0]?.checks.filter((check) => !check.passed);
    expect(failed).toEqual([]);
    expect(result).toMatchObject({ passed: true, passRate: 1 });
  });

  it('fails, with the reason in the report, with the scripted agent written to make the mistake', async () => {
    const result = await runScenario(scenario, {
      registry: fixture.registry,
      twins: fixture.twins,
      agent: agents.mistake,
    });
    expect(result.passed).toBe(false);
    const reasons =
      result.runs[0]?.checks.filter((check) => !check.passed).map((check) => check.reason) ?? [];
    expect(reasons.join('\n')).toMatch(agents.reason);
  });
});
