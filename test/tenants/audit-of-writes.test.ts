import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY } from '../../sandbox/anz-data/anz-data-emulator.js';
import { packageRoot } from '../../src/disk/package-root.js';
import { everyRedisValue, newEncryptionKey, waitFor } from '../coordination/support/worker-processes.js';
import { bundledCliProcess } from '../support/bundled-cli-process.js';
import { CookieJar } from '../support/cookie-jar.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(5);
const PREFIX = testPrefix('audit-writes');
const enabled = await redisSuiteEnabled(REDIS_URL);
/** The CLI as built (`npm run build`): each command below is its own process, as an operator runs it. */
const MAIN = path.join(packageRoot(), 'dist', 'cli', 'toolsteps.cjs');
const TRIGGER = 'ticketing.ticket_status_changed';

interface Minted {
  token: string;
  id: string;
}

// biome-ignore lint/suspicious/noExplicitAny: audit records, read field by field.
type Record = any;

describe.skipIf(!enabled)('every write through the builder API and the CLI is in the audit trail', () => {
  let home: string;
  let server: ChildProcess | undefined;
  let base = '';
  const env = {
    TOOLSTEPS_REDIS_URL: REDIS_URL,
    TOOLSTEPS_REDIS_PREFIX: PREFIX,
    TOOLSTEPS_ENCRYPTION_KEY: newEncryptionKey(),
    TOOLSTEPS_TOKEN_KEY: `audit-suite-token-key-${newEncryptionKey()}`,
    TOOLSTEPS_TENANT: undefined,
    TS_AUDIT_KEY: `key_${newEncryptionKey()}`,
  };
  const toolsteps = (...args: string[]) =>
    bundledCliProcess(MAIN, () => ({ TOOLSTEPS_HOME: home, ...env }))(args);
  const mint = async (tenant: string, ...flags: string[]): Promise<Minted> => {
    const minted = await toolsteps(
      '--tenant',
      tenant,
      'tokens',
      'create',
      '--scope',
      'builder',
      '--json',
      ...flags,
    );
    expect(minted.code, minted.err).toBe(0);
    return JSON.parse(minted.out);
  };
  const trailOf = async (tenant: string): Promise<Record[]> => {
    const read = await toolsteps('--tenant', tenant, 'audit', '--json');
    expect(read.code, read.err).toBe(0);
    return JSON.parse(read.out);
  };
  const browser = new CookieJar();
  const api = async (token: string, method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      redirect: 'manual',
    });
    browser.keep(response);
    // biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field.
    const answer: any = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer;
  };

  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-audit-writes-'));
    let out = '';
    server = spawn(process.execPath, [MAIN, '--tenant', 'acme', 'serve', '--port', '0', '--sandbox'], {
      env: { ...process.env, TOOLSTEPS_HOME: home, ...env, TOOLSTEPS_TENANT: 'acme' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk) => {
      out += chunk;
    });
    server.stderr!.on('data', () => undefined);
    await waitFor(() => /builder API at (http:\S+)\/v1 /.test(out), 'toolsteps serve to listen');
    base = /builder API at (http:\S+)\/v1 /.exec(out)![1]!;
  }, 90_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
    await clearTestKeys(REDIS_URL, PREFIX);
  });

  it("records each builder write with the asking token's id, provider-side writes included, and never a secret", async () => {
    const page = await mint('acme');
    const stored = await api(page.token, 'POST', '/v1/connections', {
      integration: 'anz_data',
      id: 'anz',
      apiKey: ANZ_DATA_SANDBOX_KEY,
    });
    expect(stored.flow).toBe('api_key');
    const started = await api(page.token, 'POST', '/v1/connections', {
      integration: 'ticketing',
      id: 'desk',
    });
    const allow = await fetch(started.authorizeUrl, { redirect: 'manual' });
    // Back to the callback as the browser that started the sign-in, with its cookie.
    await fetch(allow.headers.get('location')!, {
      redirect: 'manual',
      headers: { cookie: browser.header() },
    });
    const flow = await api(page.token, 'GET', `/v1/connect-flows/${started.flowId}`);
    expect(flow.state).toBe('connected');
    const { id: subscription } = await api(page.token, 'POST', '/v1/subscriptions', {
      trigger: TRIGGER,
      connection: 'desk',
    });
    await api(page.token, 'POST', `/v1/subscriptions/${subscription}/activate`);
    await api(page.token, 'POST', `/v1/subscriptions/${subscription}/deactivate`);
    await api(page.token, 'DELETE', `/v1/subscriptions/${subscription}`);
    await api(page.token, 'DELETE', '/v1/connections/anz');

    const trail = await trailOf('acme');
    const writes = trail
      .filter((record) => 'action' in record)
      .map((record) => [record.action, record.target]);
    expect(writes).toEqual([
      ['token.mint', page.id],
      ['connection.store', 'anz'],
      ['connection.store', 'desk'],
      ['subscription.create', subscription],
      ['subscription.activate', subscription],
      ['subscription.deactivate', subscription],
      ['subscription.remove', subscription],
      ['connection.remove', 'anz'],
    ]);
    const byPage = trail.filter((record) => record.action !== 'token.mint');
    expect(byPage.every((record) => record.caller === page.id && record.outcome === 'ok')).toBe(true);
    // The webhook made and deleted at the provider for the subscription names the token, not `builder`.
    const atProvider = trail.filter((record) => record.step === 'ticketing.provider_session');
    expect(atProvider.length).toBeGreaterThanOrEqual(2);
    expect(trail.some((record) => record.caller === 'builder')).toBe(false);

    const everything = [JSON.stringify(trail), ...(await everyRedisValue(REDIS_URL, PREFIX))].join('\n');
    expect(everything).not.toContain(page.token);
    expect(everything).not.toContain(ANZ_DATA_SANDBOX_KEY);
    expect(everything).not.toContain(env.TOOLSTEPS_TOKEN_KEY);
  }, 60_000);

  it('records each CLI write as the CLI: connections, tokens, limits, and a tenant erasure in its fresh trail', async () => {
    const add = '--tenant globex connections add anz_data --id g-anz --api-key-env TS_AUDIT_KEY';
    const added = await toolsteps(...add.split(' '));
    expect(added.code, added.err).toBe(0);
    const spare = await mint('globex');
    expect((await toolsteps('tokens', 'revoke', spare.id)).code).toBe(0);
    expect((await toolsteps('tenants', 'limits', 'set', 'globex', '--calls-per-minute', '30')).code).toBe(0);
    expect((await toolsteps('tenants', 'limits', 'set', 'globex', '--clear')).code).toBe(0);
    expect((await toolsteps('--tenant', 'globex', 'connections', 'remove', 'g-anz')).code).toBe(0);

    const trail = await trailOf('globex');
    expect(trail.map((record) => [record.action, record.target, record.caller, record.outcome])).toEqual([
      ['connection.store', 'g-anz', 'cli', 'ok'],
      ['token.mint', spare.id, 'cli', 'ok'],
      ['token.revoke', spare.id, 'cli', 'ok'],
      ['limits.set', 'globex', 'cli', 'ok'],
      ['limits.clear', 'globex', 'cli', 'ok'],
      ['connection.remove', 'g-anz', 'cli', 'ok'],
    ]);
    const everything = [JSON.stringify(trail), ...(await everyRedisValue(REDIS_URL, PREFIX))].join('\n');
    expect(everything).not.toContain(spare.token);
    expect(everything).not.toContain(env.TS_AUDIT_KEY);

    const erased = await toolsteps('tenants', 'delete', 'globex', '--yes');
    expect(erased.code, erased.err).toBe(0);
    // The erased tenant keeps no trail; the deployment's own (the default tenant's) names the erasure.
    expect(await trailOf('globex')).toEqual([]);
    expect(
      (await trailOf('default'))
        .filter((record) => record.action === 'tenant.erase')
        .map((record) => [record.action, record.target, record.caller]),
    ).toEqual([['tenant.erase', 'globex', 'cli']]);
  }, 60_000);

  it('says the trail does not verify (exit 1) when a writer to Redis altered or deleted a record, and shows no forged one', async () => {
    const client = new Redis(REDIS_URL);
    try {
      const key = `${PREFIX}:t:acme:audit:trail`;
      const entries = (await client.call('XRANGE', key, '-', '+')) as [string, string[]][];
      expect(entries.length).toBeGreaterThan(4);
      // Deletes one record from the middle and alters another, as a writer without the key can.
      await client.call('XDEL', key, entries[2]![0]);
      const altered = JSON.parse(entries[3]![1][1]!);
      altered.r.caller = 'forged-caller';
      await client.call('XADD', key, '*', 'r', JSON.stringify(altered));
      const read = await toolsteps('--tenant', 'acme', 'audit', '--json');
      expect(read.code).toBe(1);
      expect(read.err).toMatch(/does not verify/);
      expect(read.err).toMatch(/missing: records 3 to 3/);
      expect(read.err).toMatch(/tampered/);
      expect(read.out).not.toContain('forged-caller');
      expect(JSON.parse(read.out).length).toBe(entries.length - 1);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
