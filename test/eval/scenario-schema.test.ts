import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { scenarioSchemaDocument } from '../../cli/eval/scenario-schema-document.js';
import { parseScenario } from '../../src/eval/scenario-file.js';
import { ScriptFile } from '../../src/eval/scripted-agent.js';

const FOLDER = 'docs/examples/eval/scenarios';
const STARTERS = readdirSync(FOLDER).filter((file) => file.endsWith('.yaml'));

describe('eval-scenario.schema.json', () => {
  it('is what the zod schema and the twins’ seed schemas make (run `toolsteps eval --schema > eval-scenario.schema.json`)', () => {
    expect(readFileSync('eval-scenario.schema.json', 'utf8')).toBe(scenarioSchemaDocument());
  });

  it('accepts every starter scenario and refuses a seed the twin would refuse', () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(scenarioSchemaDocument()));
    expect(STARTERS).toHaveLength(6);
    for (const name of STARTERS) {
      const scenario = parseYaml(readFileSync(`${FOLDER}/${name}`, 'utf8'));
      expect(validate(scenario), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const wrongSeed = {
      name: 'x',
      connections: ['ticketing'],
      task: { text: 't' },
      twins: { ticketing: { tickets: [{ subject: 's' }] } },
    };
    expect(validate(wrongSeed)).toBe(false);
  });
});

describe('parseScenario', () => {
  it('names the file and the failing field, and fills the defaults', () => {
    expect(() => parseScenario('name: Bad Name\nconnections: []\ntask: { text: x }', 'bad.yaml')).toThrow(
      /bad\.yaml is not a valid scenario: name:/,
    );
    const scenario = parseScenario('name: ok\nconnections: [ticketing]\ntask: { text: x }');
    expect(scenario).toMatchObject({
      runs: 1,
      pass_rate: 1,
      tools: { mode: 'flat', read_only: false },
      faults: [],
    });
  });

  it('refuses a fault armed both at a call and at a step, and a state check with no condition', () => {
    const base = 'name: ok\nconnections: [ticketing]\ntask: { text: x }\n';
    expect(() =>
      parseScenario(
        `${base}faults: [{ kind: timeout, twin: ticketing, at: { call: 1, step: ticketing.create_ticket } }]`,
      ),
    ).toThrow(/give call or step, not both/);
    expect(() => parseScenario(`${base}checks: { state: [{ twin: ticketing, path: $.tickets }] }`)).toThrow(
      /needs count, min_count, max_count, equals or at_most/,
    );
  });
});

describe('the example scripted agents', () => {
  it('are scripted agent files the CLI reads', () => {
    const folder = 'docs/examples/eval/agents';
    for (const file of readdirSync(folder)) {
      expect(ScriptFile.safeParse(parseYaml(readFileSync(`${folder}/${file}`, 'utf8'))).success, file).toBe(
        true,
      );
    }
  });
});
