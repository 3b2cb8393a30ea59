import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-harness.js';
import { useTempDir } from '../support/temp-dir.js';

const TRIAGE = 'docs/examples/eval/scenarios/triage-ticket.yaml';

/** `toolsteps eval` on the triage scenario with an agent file, the reports in `out`. */
const evalTriage = (agent: string, out: string, ...more: string[]) =>
  cli('eval', TRIAGE, '--agent', agent, '--out', out, ...more);

describe('toolsteps eval', () => {
  const dir = useTempDir('toolsteps-eval-');

  it('runs an AI SDK agent with a scripted model end to end and writes the JSON, JUnit and HTML reports', async () => {
    const out = path.join(dir(), 'ai-sdk');
    const run = await evalTriage('test/eval/fixtures/ai-sdk-triage-agent.ts', out);
    expect(run.out).toContain('PASS triage-ticket: 1/1 run(s) passed');
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.scenarios[0]).toMatchObject({ agent: 'ai-sdk with a scripted model', passed: true });
    expect(report.scenarios[0].runs[0].answer).toBe(
      'Ticket 4 is a billing problem: high priority, routed to Billing.',
    );
    expect(report.scenarios[0].runs[0].calls.map((call: { step: string }) => call.step)).toEqual([
      'ticketing.get_ticket_info',
      'ticketing.update_ticket',
    ]);
    expect(readFileSync(path.join(out, 'report.xml'), 'utf8')).toMatch(
      /<testcase classname="triage-ticket" name="triage-ticket run 1" time="[\d.]+"\/>/,
    );
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(
      'data-step="ticketing.update_ticket"',
    );
  });

  it('fails with exit 1 and says why when the agent makes the mistake, in the terminal and the JUnit report', async () => {
    const out = path.join(dir(), 'wrong');
    const run = await evalTriage('docs/examples/eval/agents/triage-wrong-group.yaml', out, '--runs', '2');
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAIL triage-ticket: 0/2 run(s) passed');
    expect(run.out).toContain('ticket 4 is with the Billing group: expected "Billing"');
    const junit = readFileSync(path.join(out, 'report.xml'), 'utf8');
    expect(junit).toContain('tests="2" failures="2"');
    expect(junit).toMatch(/<failure message="ticket 4 is with the Billing group: expected &#34;Billing&#34;/);
  });

  it('prints the scenario JSON Schema, and refuses a run without an agent before starting anything', async () => {
    const schema = await cli('eval', '--schema');
    expect(JSON.parse(schema.out)).toMatchObject({ title: 'toolsteps evaluation scenario' });
    const missing = await cli('eval', TRIAGE, '--out', path.join(dir(), 'none'));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--agent');
    expect(existsSync(path.join(dir(), 'none'))).toBe(false);
  });
});
