import { beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { freePort } from '../support/ports.js';
import {
  addConnection,
  addSandboxDeployments,
  addSandboxTicketing,
  cli,
  jsonError,
  refusedRun,
  runStep,
  useCliWorld,
} from './cli-harness.js';

/**
 * Exit codes and messages of the finished CLI (issue 13, section 3): every
 * refusal made before sending exits 2, a network failure names the host,
 * a taken sandbox port says so, create_ticket says created or recovered.
 */

const world = useCliWorld('toolsteps-cli-refusals-', {
  env: ['TS_REFUSAL_TOKEN', 'TS_REFUSAL_KEY', 'TS_REFUSAL_DEPLOY'],
});
const sentTo = (mount: string) =>
  world.sandbox.server.requestLog.filter((entry) => entry.mount === mount).length;

beforeAll(async () => {
  const added = [
    await addSandboxTicketing(world.sandbox, 'desk', 'TS_REFUSAL_TOKEN'),
    await addConnection(
      'anz_data',
      'anz',
      { env: 'TS_REFUSAL_KEY', value: ANZ_DATA_SANDBOX_KEY, flag: '--api-key-env' },
      '--base-url',
      world.sandbox.baseUrl('anz-data'),
    ),
    await addSandboxDeployments(world.sandbox, 'vercel', 'TS_REFUSAL_DEPLOY', '--team-id', 'team_acme'),
  ];
  for (const result of added) expect(result.code).toBe(0);
});

describe('every refusal before sending exits 2', () => {
  it('over the credit budget: exit 2, credit_budget_exceeded, nothing sent', async () => {
    const before = sentTo('anz-data');
    const refused = await refusedRun(
      'anz_data.enrich_person',
      'anz',
      { email: 'someone@example.com' },
      '--credit-budget',
      '1',
    );
    expect(refused).toMatchObject({ code: 'credit_budget_exceeded', sent: false });
    expect(sentTo('anz-data')).toBe(before);
  });

  it('outside a --constraint: exit 2, permission_denied, nothing sent', async () => {
    const before = sentTo('deployments');
    const args = [{ project: 'shop', branch: 'main' }, '--constraint', 'projects=docs'] as const;
    const refused = await refusedRun('deployments.create_deployment', 'vercel', ...args);
    expect(refused).toMatchObject({ code: 'permission_denied', status: null });
    expect(sentTo('deployments')).toBe(before);
  });

  it('a --constraint the step does not apply is an input error, not ignored', async () => {
    const before = sentTo('ticketing');
    const onTicketing = await refusedRun(
      'ticketing.list_tickets',
      'desk',
      {},
      '--constraint',
      'projects=shop',
    );
    expect(onTicketing).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'constraints.projects', message: 'not applied' }],
    });
    const misspelt = await runStep(
      'deployments.list_deployments',
      'vercel',
      {},
      '--constraint',
      'project=shop',
    );
    expect(misspelt.code).toBe(2);
    expect(misspelt.err).toContain('constraints.project: not applied; did you mean projects?');
    expect(sentTo('ticketing')).toBe(before);
  });

  it('a provider 403 is still a failure (exit 1), not a refusal', async () => {
    world.sandbox.faults.add({ target: 'ticketing', count: 1, action: { kind: 'status', status: 403 } });
    const result = await runStep('ticketing.list_tickets', 'desk', {}, '--json');
    expect(result.code).toBe(1);
    expect(jsonError(result)).toMatchObject({ code: 'permission_denied', status: 403 });
  });
});

describe('failures say where', () => {
  it('a network error names the host it could not reach', async () => {
    const port = await freePort();
    const add = await addConnection(
      'ticketing',
      'gone',
      { env: 'TS_REFUSAL_TOKEN', value: 'tkt_never_sent_anywhere' },
      '--subdomain',
      'acme',
      '--base-url',
      `http://127.0.0.1:${port}`,
    );
    expect(add.code).toBe(0);
    const result = await runStep('ticketing.list_tickets', 'gone', {});
    expect(result.code).toBe(1);
    expect(result.err).toContain(`to 127.0.0.1:${port} failed on the network (ECONNREFUSED)`);
  });

  it('sandbox --assume with an unknown name or value exits 2 naming it, before any port is opened', async () => {
    const port = new URL(world.sandbox.url).port;
    // The taken port would be refused too: the assumption is checked first.
    const unknown = await cli('sandbox', '--port', port, '--assume', 'governance.nope=1', '--json');
    expect(unknown.code).toBe(2);
    expect(jsonError(unknown)).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'assume.governance' }],
    });
    const value = await cli('sandbox', '--port', port, '--assume', 'governance.second_invite=maybe');
    expect(value.code).toBe(2);
    expect(value.err).toContain('assume.governance.second_invite');
  });

  it('sandbox on a taken port says so and suggests --port 0', async () => {
    const port = new URL(world.sandbox.url).port;
    const human = await cli('sandbox', '--port', port);
    expect(human.code).toBe(2);
    expect(human.err).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(human.err).toContain('--port 0');
    const json = await cli('sandbox', '--port', port, '--json');
    expect(jsonError(json)).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'port', message: 'in use' }],
    });
  });
});

describe('create_ticket says whether it created the ticket or recovered an earlier one', () => {
  it('first run creates, the same external_id again is recovered (reconciled), one ticket in all', async () => {
    const input = { subject: 'VPN down', description: 'Nobody can connect.', external_id: 'cli-req-1' };
    const first = await runStep('ticketing.create_ticket', 'desk', input);
    expect(first.code).toBe(0);
    expect(first.out).toContain('Create Ticket: done by this run, not recovered from an earlier attempt.');
    const again = await runStep('ticketing.create_ticket', 'desk', input);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Create Ticket: recovered (reconciled)');
    const firstId = JSON.parse(first.out.slice(first.out.indexOf('{'), first.out.indexOf('\nvariables:')))
      .ticket.id;
    const againId = JSON.parse(again.out.slice(again.out.indexOf('{'), again.out.indexOf('\nvariables:')))
      .ticket.id;
    expect(againId).toBe(firstId);
  });
});

describe('readable output', () => {
  it('prints valid JSON for values, cuts long ones, and says so on stderr', async () => {
    const description = 'x'.repeat(2_000);
    const made = await runStep(
      'ticketing.create_ticket',
      'desk',
      { subject: 'Long one', description },
      '--json',
    );
    const id = JSON.parse(made.out).output.ticket.id as number;
    const human = await runStep('ticketing.get_ticket_info', 'desk', { ticket_id: id });
    expect(human.code).toBe(0);
    const output = JSON.parse(human.out.slice('output:\n'.length, human.out.indexOf('\nvariables:')));
    expect(output.ticket.description).toMatch(/^x{300}\.\.\. \(1700 more characters\)$/);
    expect(human.err).toMatch(/long values? (was|were) cut for reading; add --json for the full output/);
    const json = await runStep('ticketing.get_ticket_info', 'desk', { ticket_id: id }, '--json');
    expect(JSON.parse(json.out).output.ticket.description).toBe(description);
  });
});
