import { describe, expect, it } from 'vitest';
import { commandAgent } from '../../src/eval/command-agent.js';
import { agentFromFunction } from '../../src/eval/eval-agent.js';
import { runScenario } from '../../src/eval/run-scenario.js';
import { Scenario, type ScenarioInput } from '../../src/eval/scenario.js';
import { scriptedAgent } from '../../src/eval/scripted-agent.js';
import { useEvalTwins } from './eval-twins.js';

const fixture = useEvalTwins();

/** A ticketing scenario with these faults, read by a one-call agent. */
function readTicket(faults: ScenarioInput['faults']): Scenario {
  return Scenario.parse({
    name: 'read-ticket',
    connections: ['ticketing'],
    task: { text: 'Read ticket 1.' },
    faults,
  });
}
const readsTicketOne = scriptedAgent('reads ticket 1', [
  { step: 'ticketing.get_ticket_info', input: { ticket_id: 1 } },
]);

async function firstCall(faults: ScenarioInput['faults']) {
  const result = await runScenario(readTicket(faults), {
    registry: fixture.registry,
    twins: fixture.twins,
    agent: readsTicketOne,
  });
  return result.runs[0]!.calls[0]!;
}

describe('faults a scenario arms through the control endpoints', () => {
  it('an expired access token: the runtime refreshes it and the call goes through', async () => {
    const call = await firstCall([{ kind: 'expired_token', twin: 'ticketing' }]);
    expect(call).toMatchObject({
      ok: true,
      faults: [{ kind: 'expired_token', twin: 'ticketing', beforeCall: 1 }],
    });
  });

  it('a revoked grant: the call fails with an auth error the agent can read', async () => {
    const call = await firstCall([{ kind: 'revoked_grant', twin: 'ticketing' }]);
    expect(call.ok).toBe(false);
    expect(call.error?.code).toMatch(/auth|token|grant|reconnect/);
  });

  it('a 503 and a slow answer: the runtime retries the read, and the trajectory says so', async () => {
    const call = await firstCall([
      { kind: 'server_error', twin: 'ticketing', status: 503 },
      { kind: 'slow', twin: 'ticketing', ms: 300 },
    ]);
    expect(call).toMatchObject({ ok: true, retries: 1 });
    expect(call.attempts).toBeGreaterThanOrEqual(2);
    expect(call.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('a fault armed at a later call leaves the earlier ones alone', async () => {
    const scenario = Scenario.parse({
      name: 'later',
      connections: ['ticketing'],
      task: { text: 'Read two tickets.' },
      faults: [{ kind: 'server_error', twin: 'ticketing', status: 500, count: 10, at: { call: 2 } }],
    });
    const agent = scriptedAgent('reads two', [
      { step: 'ticketing.get_ticket_info', input: { ticket_id: 1 } },
      { step: 'ticketing.get_ticket_info', input: { ticket_id: 2 } },
    ]);
    const [first, second] = (
      await runScenario(scenario, { registry: fixture.registry, twins: fixture.twins, agent })
    ).runs[0]!.calls;
    expect(first).toMatchObject({ ok: true, faults: [] });
    expect(second).toMatchObject({ ok: false, faults: [{ kind: 'server_error', beforeCall: 2 }] });
  });
});

describe('the twins’ scenario endpoints', () => {
  it('refuse a seed without the control header, a seed the twin cannot take, and a twin that does not exist', async () => {
    const post = (
      path: string,
      body: unknown,
      headers: Record<string, string> = { 'x-toolsteps-sandbox': '1' },
    ) =>
      fetch(`${fixture.sandbox.url}/_sandbox${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    expect((await post('/seed/ticketing', {}, {})).status).toBe(403);
    const refused = await post('/seed/ticketing', { tickets: [{ subject: 'no description' }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('tickets.0.description');
    const unknownUser = await post('/seed/ticketing', {
      tickets: [{ subject: 's', description: 'd', assignee_email: 'nobody@acme.example' }],
    });
    expect(await unknownUser.json()).toMatchObject({
      error: 'invalid_seed',
      message: expect.stringContaining('nobody@acme.example'),
    });
    expect((await post('/seed/nowhere', {})).status).toBe(404);
    expect((await post('/tokens/contact-data', { action: 'expire' })).status).toBe(409);
  });
});

describe('tools in catalog mode, and an agent that is a command', () => {
  const triage = (mode: 'flat' | 'catalog') =>
    Scenario.parse({
      name: 'triage',
      connections: ['ticketing'],
      twins: { ticketing: { tickets: [{ subject: 'Refund', description: 'Charged twice.' }] } },
      task: { text: 'Route ticket 4 to Billing.' },
      tools: { mode, steps: ['ticketing.get_ticket_info', 'ticketing.update_ticket'] },
      checks: { state: [{ twin: 'ticketing', path: '$.tickets[?@.id == 4].group', equals: 'Billing' }] },
    });

  it('offers the catalogue tools and records the steps run through run_step', async () => {
    const agent = agentFromFunction('catalogue user', async (session) => {
      expect(session.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['search_steps', 'describe_step', 'run_step']),
      );
      expect(session.tools.map((tool) => tool.name)).not.toContain('ticketing__update_ticket');
      const found = (await session.call('search_steps', { query: 'update ticket' })) as {
        steps: { id: string }[];
      };
      expect(found.steps.map((step) => step.id)).toContain('ticketing.update_ticket');
      await session.call('run_step', {
        step: 'ticketing.update_ticket',
        input: { ticket_id: 4, group_id: 360_002 },
      });
      return { text: 'done' };
    });
    const result = await runScenario(triage('catalog'), {
      registry: fixture.registry,
      twins: fixture.twins,
      agent,
    });
    expect(result.runs[0]!.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.runs[0]!.calls.map((call) => call.step)).toEqual(['ticketing.update_ticket']);
  });

  it('runs a command speaking JSON lines, and records its calls', async () => {
    const agent = commandAgent(['node', 'test/eval/fixtures/command-agent.mjs']);
    const result = await runScenario(triage('flat'), {
      registry: fixture.registry,
      twins: fixture.twins,
      agent,
    });
    expect(result.runs[0]).toMatchObject({ passed: true, answer: 'group 360002' });
    expect(result.runs[0]!.calls.map((call) => call.step)).toEqual([
      'ticketing.get_ticket_info',
      'ticketing.update_ticket',
    ]);
  });
});
