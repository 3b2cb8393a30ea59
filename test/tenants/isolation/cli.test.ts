import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import {
  cli,
  createManualSubscription,
  jsonError,
  stopListening,
  useCliHome,
} from '../../cli/cli-harness.js';
import { freePort, untilListening } from '../../support/ports.js';
import { signTicketing, ticketStatusEvent } from '../../triggers/trigger-fixtures.js';
import {
  A,
  A_HOOK_SECRET,
  A_ONLY,
  A_TOKEN,
  B,
  B_HOOK_SECRET,
  B_TOKEN,
  countingProvider,
  deskConnection,
  shapeOf,
} from './two-tenants.js';

const home = useCliHome('toolsteps-isolation-cli-', { scope: 'all', env: ['TOOLSTEPS_TENANT'] });
let provider: Awaited<ReturnType<typeof countingProvider>>;
let port: number;
let aSubscription: { id: string; url: string };

const json = (result: { out: string }) => JSON.parse(result.out);
const CALL = [
  'run',
  'ticketing.api_call',
  '--input',
  JSON.stringify({ method: 'GET', endpoint: '/api/v2/tickets.json' }),
];

/** `triggers create` of a manual status-change subscription through `desk`, for `tenant`. */
async function subscribe(tenant: string, secret: string) {
  const created = await createManualSubscription(port, secret, '--tenant', tenant, '--json');
  expect(created.code).toBe(0);
  return json(created) as { id: string; url: string };
}

beforeAll(async () => {
  provider = await countingProvider();
  port = await freePort();
  const stores = new FileTenantStores(home());
  for (const [tenant, token] of [
    [A, A_TOKEN],
    [B, B_TOKEN],
  ] as const) {
    await stores.forTenant(tenant).connections.put(deskConnection('support', token, provider.url));
    await stores.forTenant(tenant).connections.put(deskConnection('desk', token, provider.url));
  }
  await stores.forTenant(A).connections.put(deskConnection(A_ONLY, A_TOKEN, provider.url));
  aSubscription = await subscribe(A, A_HOOK_SECRET);
  await subscribe(B, B_HOOK_SECRET);
});
afterAll(async () => {
  await provider.close();
});

describe('CLI: tenant b cannot reach tenant a', () => {
  it('lists only its own connections and subscriptions, with --tenant or TOOLSTEPS_TENANT', async () => {
    const mine = await cli('--tenant', B, 'connections', 'list', '--json');
    expect(json(mine).map((item: { id: string }) => item.id)).toEqual(['desk', 'support']);
    process.env.TOOLSTEPS_TENANT = B;
    const fromEnv = await cli('subscriptions', '--json');
    delete process.env.TOOLSTEPS_TENANT;
    expect(json(fromEnv)).toHaveLength(1);
    expect(json(fromEnv)[0].id).not.toBe(aSubscription.id);
    for (const result of [mine, fromEnv]) {
      expect(result.out + result.err).not.toContain(A_ONLY);
      expect(result.out + result.err).not.toContain(aSubscription.id);
    }
    expect(aSubscription.url).toBe(`http://127.0.0.1:${port}/hooks/a/${aSubscription.id}`);
    const tenants = await cli('tenants', 'list', '--json');
    expect(json(tenants)).toEqual([
      { tenant: 'a', connections: 3, subscriptions: 1 },
      { tenant: 'b', connections: 2, subscriptions: 1 },
    ]);
    expect(tenants.out).not.toContain(A_TOKEN);
  });

  it("refuses a's connection and subscription by id as ids that exist nowhere, sending nothing", async () => {
    provider.seen.length = 0;
    const foreign = await cli('--tenant', B, ...CALL, '--connection', A_ONLY, '--json');
    const nowhere = await cli('--tenant', B, ...CALL, '--connection', 'no-such-desk', '--json');
    expect(foreign.code).toBe(nowhere.code);
    expect(jsonError(foreign)).toMatchObject({ code: 'not_found', sent: false });
    expect(shapeOf(jsonError(foreign), A_ONLY)).toEqual(shapeOf(jsonError(nowhere), 'no-such-desk'));
    for (const args of [
      ['triggers', 'status', aSubscription.id],
      ['triggers', 'remove', aSubscription.id],
      ['triggers', 'deactivate', aSubscription.id],
      ['connections', 'remove', A_ONLY],
    ]) {
      const result = await cli('--tenant', B, ...args, '--json');
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.out + result.err).not.toContain(A_TOKEN);
    }
    expect(provider.seen).toEqual([]);
    const still = await cli('--tenant', A, 'subscriptions', '--json');
    expect(json(still)[0]).toMatchObject({ id: aSubscription.id, active: true });
  });

  it('refuses a malformed tenant id before any store is touched', async () => {
    for (const bad of ['../b', 'Acme', '%2e%2e', '', 'a/../b']) {
      const viaOption = await cli('--tenant', bad, 'connections', 'list', '--json');
      expect(viaOption.code, bad).toBe(2);
      expect(jsonError(viaOption)).toMatchObject({ code: 'input_invalid' });
      expect(jsonError(viaOption).message).toContain('--tenant');
      process.env.TOOLSTEPS_TENANT = bad;
      const viaEnv = await cli('connections', 'list', '--json');
      delete process.env.TOOLSTEPS_TENANT;
      expect(viaEnv.code, bad).toBe(2);
      expect(jsonError(viaEnv).message).toContain('TOOLSTEPS_TENANT');
    }
    expect((await readdir(`${home()}/tenants`)).sort()).toEqual(['a', 'b']);
  });

  it("listen serves every tenant's hooks, each from its own store: b's secret or b's path never starts a's agent", async () => {
    const listening = cli('listen', '--port', String(port), '--json');
    await untilListening(port);
    const body = JSON.stringify(ticketStatusEvent({ time: new Date().toISOString() }));
    const deliver = (url: string, secret: string, text = body) =>
      fetch(url, {
        method: 'POST',
        body: text,
        headers: signTicketing(text, new Date().toISOString(), secret),
      });
    const crossPath = aSubscription.url.replace('/hooks/a/', '/hooks/b/');
    const statuses = [
      (await deliver(aSubscription.url, B_HOOK_SECRET)).status,
      (await deliver(crossPath, A_HOOK_SECRET)).status,
      (await deliver(aSubscription.url.replace('/hooks/a/', '/hooks/'), A_HOOK_SECRET)).status,
      (await deliver(aSubscription.url, A_HOOK_SECRET)).status,
    ];
    const result = await stopListening(listening);
    expect(statuses).toEqual([401, 401, 401, 200]);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({ tenant: 'a', subscription: aSubscription.id });

    // Serving one tenant (--tenant b), a's hook is no one's.
    const onlyB = cli('--tenant', B, 'listen', '--port', String(port), '--json');
    await untilListening(port);
    const fresh = JSON.stringify(ticketStatusEvent({ id: 'evt-b-only', time: new Date().toISOString() }));
    const refused = (await deliver(aSubscription.url, A_HOOK_SECRET, fresh)).status;
    const stopped = await stopListening(onlyB);
    expect(refused).toBe(401);
    expect(stopped.events).toEqual([]);
  });

  it('tenants delete erases a, and b keeps everything', async () => {
    // One at a time: the harness runs the CLI in this process and captures its output.
    const bRefusals = async () => {
      const results = [];
      for (const args of [
        [...CALL, '--connection', A_ONLY],
        ['connections', 'test', A_ONLY],
        ['connections', 'remove', A_ONLY],
        ['triggers', 'status', aSubscription.id],
      ]) {
        results.push(await cli('--tenant', B, ...args, '--json'));
      }
      return results;
    };
    const whileAHoldsThem = await bRefusals();
    expect((await cli('tenants', 'delete', A)).code).toBe(2);
    expect((await cli('--tenant', B, 'tenants', 'delete', A, '--yes')).code).toBe(2);
    provider.seen.length = 0;
    const erased = await cli('tenants', 'delete', A, '--yes', '--json');
    expect(erased.code).toBe(0);
    // Each of a's connections had its grant revoked at the provider with a's own token, and nothing with b's.
    expect(provider.seen.sort()).toEqual(
      Array.from({ length: 3 }, () => `DELETE /api/v2/oauth/tokens/current.json Bearer ${A_TOKEN}`),
    );
    expect(
      json(erased).connections.map((one: { revocation: { state: string } }) => one.revocation.state),
    ).toEqual(['revoked', 'revoked', 'revoked']);
    provider.seen.length = 0;
    expect(json(erased)).toMatchObject({
      tenant: 'a',
      // The subscription was removed (at the provider, then its record) before the rest was erased.
      erased: { connections: 3, subscriptions: 0 },
      subscriptions: [{ id: aSubscription.id, manual: true }],
    });
    expect(await readdir(`${home()}/tenants`)).toEqual(['b']);
    // Now nobody holds a's ids: b's refusals are byte for byte what they were while a held them.
    const onceNobodyDoes = await bRefusals();
    for (const [index, before] of whileAHoldsThem.entries()) {
      expect(before.code).toBe(2);
      expect(jsonError(before).code).toBe('not_found');
      expect([before.code, before.out, before.err]).toEqual([
        onceNobodyDoes[index]!.code,
        onceNobodyDoes[index]!.out,
        onceNobodyDoes[index]!.err,
      ]);
    }
    expect(provider.seen).toEqual([]);
    expect(json(await cli('--tenant', A, 'connections', 'list', '--json'))).toEqual([]);
    expect(json(await cli('--tenant', B, 'connections', 'list', '--json'))).toHaveLength(2);
    expect(json(await cli('tenants', 'list', '--json'))).toEqual([
      { tenant: 'b', connections: 2, subscriptions: 1 },
    ]);
  });
});
