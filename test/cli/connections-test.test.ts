import { beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY, CONTACT_DATA_SANDBOX_KEY, GOVERNANCE_SANDBOX } from '../../sandbox/index.js';
import {
  acmeDesk,
  addConnection,
  addSandboxDeployments,
  addSandboxTicketing,
  cli,
  useCliWorld,
} from './cli-harness.js';

/** `connections test <id>`: the cheapest authenticated read each integration declares, against the sandbox. */

const ENV = ['TS_CT_TICKETING', 'TS_CT_DEPLOY', 'TS_CT_ANZ', 'TS_CT_CONTACT', 'TS_CT_GOV', 'TS_CT_BOGUS'];
const world = useCliWorld('toolsteps-cli-conntest-', { env: ENV });
const sentTo = (mount: string) => world.sandbox.server.requestLog.filter((entry) => entry.mount === mount);

beforeAll(async () => {
  const key = (env: string, value: string) => ({ env, value, flag: '--api-key-env' as const });
  const base = (mount: string, ...more: string[]) => ['--base-url', world.sandbox.baseUrl(mount, ...more)];
  // One at a time: the harness captures one run's output at a time.
  const added = [
    await addSandboxTicketing(world.sandbox, 'desk', 'TS_CT_TICKETING'),
    await addConnection(
      'ticketing',
      'revoked',
      { env: 'TS_CT_BOGUS', value: 'tkt_not_a_token_anyone_issued' },
      ...acmeDesk(world.sandbox),
    ),
    await addSandboxDeployments(world.sandbox, 'vercel', 'TS_CT_DEPLOY'),
    await addConnection('anz_data', 'anz', key('TS_CT_ANZ', ANZ_DATA_SANDBOX_KEY), ...base('anz-data')),
    await addConnection(
      'contact_data',
      'lusha',
      key('TS_CT_CONTACT', CONTACT_DATA_SANDBOX_KEY),
      ...base('contact-data'),
    ),
    await addConnection(
      'governance',
      'gov',
      key('TS_CT_GOV', GOVERNANCE_SANDBOX.adminKey),
      ...base('governance', 'au'),
      '--region',
      'au',
      '--project-id',
      GOVERNANCE_SANDBOX.projectId,
    ),
  ];
  for (const result of added) expect(result.code).toBe(0);
});

const test = async (id: string) => {
  const result = await cli('connections', 'test', id, '--json');
  return { code: result.code, report: JSON.parse(result.out) as Record<string, unknown> };
};

describe('connections test', () => {
  it('ticketing: GET /api/v2/users/me names the signed-in agent', async () => {
    const { code, report } = await test('desk');
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, request: 'GET /api/v2/users/me.json -> 200' });
    expect(report.says).toMatch(/^signed in as .+ <.+@.+> \((admin|agent)\)$/);
    expect(sentTo('ticketing').at(-1)).toMatchObject({ method: 'GET' });
    const human = await cli('connections', 'test', 'desk');
    expect(human.out).toMatch(
      /^desk \(ticketing\): works\n {2}GET \/api\/v2\/users\/me\.json -> 200\n {2}signed in as /,
    );
  });

  it('deployments, anz_data and contact_data each make their free read', async () => {
    const vercel = await test('vercel');
    expect(vercel).toMatchObject({ code: 0, report: { ok: true, request: 'GET /v2/user -> 200' } });
    expect(vercel.report.says).toMatch(/^signed in as \S+/);
    const anz = await test('anz');
    expect(anz).toMatchObject({ code: 0, report: { ok: true, request: 'GET /credits -> 200' } });
    expect(anz.report.says).toMatch(/^key accepted; \d+ credits left/);
    const lusha = await test('lusha');
    expect(lusha).toMatchObject({ code: 0, report: { ok: true, request: 'GET /account/usage -> 200' } });
  });

  it('governance has no free read: says so, sends nothing, exit 0', async () => {
    const before = sentTo('governance').length;
    const { code, report } = await test('gov');
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: null, request: null });
    expect(report.says).toContain('only writes');
    expect(sentTo('governance').length).toBe(before);
  });

  it('a refused token fails (exit 1) and says the credentials were refused, never printing them', async () => {
    const result = await cli('connections', 'test', 'revoked', '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report).toMatchObject({ ok: false, request: 'GET /api/v2/users/me.json' });
    expect(report.says).toMatch(/credentials were refused/);
    expect(result.out).not.toContain(process.env.TS_CT_BOGUS);
  });

  it('a 200 that answers as an anonymous user is a failed check, not a pass', async () => {
    world.sandbox.faults.add({
      target: 'ticketing',
      pathIncludes: '/users/me',
      count: 1,
      action: {
        kind: 'status',
        status: 200,
        body: { user: { id: null, name: 'Anonymous user', role: 'end-user' } },
      },
    });
    const { code, report } = await test('desk');
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, says: expect.stringContaining('anonymous user') });
  });

  it('an unknown id is bad input (exit 2)', async () => {
    expect((await cli('connections', 'test', 'nobody')).code).toBe(2);
  });
});
