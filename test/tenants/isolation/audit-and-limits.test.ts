import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coordinator } from '../../../src/coordination/coordinator.js';
import { LocalCoordinator } from '../../../src/coordination/local-coordinator.js';
import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import type { StepRunRecord } from '../../../src/store/audit/audit-trail.js';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import { MemoryTenantStores } from '../../../src/store/memory/memory-tenant-stores.js';
import { RedisTenantStores } from '../../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import type { TenantStores } from '../../../src/store/tenant-stores.js';
import { createRegistry } from '../../../steps/index.js';
import { cli, useCliHome } from '../../cli/cli-harness.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import { A, A_ONLY, A_TOKEN, B, B_TOKEN, countingProvider, seedTwoTenants } from './two-tenants.js';

const REDIS_URL = testRedisUrl(14);
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const PREFIX = testPrefix('isolation-audit');
const registry = createRegistry();
/** A value only a's input holds: it must reach no audit record, a's or b's. */
const A_INPUT_VALUE = 'a-confidential-subject-7731';
const WRITE = (subject: string) => ({
  method: 'POST' as const,
  endpoint: '/api/v2/tickets.json',
  body: { ticket: { subject } },
});
let provider: Awaited<ReturnType<typeof countingProvider>>;
let home: string;
const coordinators: Coordinator[] = [];

beforeAll(async () => {
  provider = await countingProvider();
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-isolation-audit-'));
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});
afterAll(async () => {
  for (const coordinator of coordinators) await coordinator.close();
  await provider.close();
  await rm(home, { recursive: true, force: true });
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});

async function redisBackend(): Promise<{ stores: TenantStores; coordinator: Coordinator }> {
  const coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix: PREFIX })) as RedisCoordinator;
  coordinators.push(coordinator);
  return { stores: new RedisTenantStores(coordinator, new SecretBox(randomBytes(32))), coordinator };
}

const backends: [string, boolean, () => Promise<{ stores: TenantStores; coordinator: Coordinator }>][] = [
  ['memory', true, async () => ({ stores: new MemoryTenantStores(), coordinator: new LocalCoordinator() })],
  [
    'file',
    true,
    async () => ({
      stores: new FileTenantStores(path.join(home, randomBytes(4).toString('hex'))),
      coordinator: new LocalCoordinator(),
    }),
  ],
  ['redis', redisEnabled, redisBackend],
];

describe.each(backends)(
  'audit and limits: tenant b cannot reach tenant a (%s store)',
  (_name, enabled, make) => {
    it.skipIf(!enabled)(
      "b's trail holds only b's runs; a's audit is not b's to read, and a's limit is not b's",
      async () => {
        const { stores, coordinator } = await make();
        await seedTwoTenants(stores, provider.url);
        await stores.forTenant(A).limits.set({ callsPerMinute: 1 });
        const runtime = (tenant: typeof A) =>
          new Runtime({
            tenant,
            tenantStores: stores,
            coordination: coordinator,
            transport: 'fetch',
            caller: `app-${tenant}`,
          });
        const write = (tenant: typeof A, connection: string, subject: string) =>
          registry.invoke(runtime(tenant), 'ticketing.api_call', { connection, input: WRITE(subject) }).then(
            () => 'ok',
            (error: { code: string }) => error.code,
          );
        provider.seen.length = 0;
        expect(await write(A, 'support', A_INPUT_VALUE)).toBe('ok');
        // a spent its minute; b's share is its own.
        expect(await write(A, 'support', A_INPUT_VALUE)).toBe('tenant_limit_exceeded');
        expect(await write(B, 'support', 'b subject')).toBe('ok');
        expect(await write(B, 'support', 'b subject')).toBe('ok');
        // b naming a's connection: refused as an unknown id, sent nowhere, recorded in b's trail only.
        expect(await write(B, A_ONLY, 'b subject')).toBe('not_found');
        expect(provider.seen).toHaveLength(3);

        const aTrail = await stores.forTenant(A).audit.read();
        const bTrail = await stores.forTenant(B).audit.read();
        expect(aTrail.map((one) => [one.caller, one.outcome, one.error_code])).toEqual([
          ['app-a', 'ok', undefined],
          ['app-a', 'error', 'tenant_limit_exceeded'],
        ]);
        expect(bTrail.map((one) => [one.caller, (one as StepRunRecord).connection, one.outcome])).toEqual([
          ['app-b', 'support', 'ok'],
          ['app-b', 'support', 'ok'],
          ['app-b', A_ONLY, 'error'],
        ]);
        const everything = JSON.stringify([aTrail, bTrail]);
        for (const value of [A_INPUT_VALUE, A_TOKEN, B_TOKEN, 'b subject'])
          expect(everything).not.toContain(value);
        expect(await stores.forTenant(B).limits.get()).toEqual({});

        await stores.eraseTenant(A);
        expect(await stores.forTenant(A).audit.read()).toEqual([]);
        expect(await stores.forTenant(A).limits.get()).toEqual({});
        expect(await stores.forTenant(B).audit.read()).toHaveLength(3);
      },
    );
  },
);

describe('CLI: audit and tenants limits keep to their tenant', () => {
  const cliHome = useCliHome('toolsteps-isolation-audit-cli-', { scope: 'all', env: ['TOOLSTEPS_TENANT'] });
  const json = (result: { out: string }) => JSON.parse(result.out);

  it("audit --tenant b shows b's runs only; limits set for a are a's", async () => {
    const stores = new FileTenantStores(cliHome());
    await seedTwoTenants(stores, provider.url);
    const run = (tenant: string, subject: string) =>
      cli(
        '--tenant',
        tenant,
        'run',
        'ticketing.api_call',
        '--connection',
        'support',
        '--input',
        JSON.stringify(WRITE(subject)),
        '--json',
      );
    expect((await run(A, A_INPUT_VALUE)).code).toBe(0);
    expect((await run(B, 'b subject')).code).toBe(0);
    const read = await cli('--tenant', 'b', 'audit', '--since', '1h', '--json');
    expect(read.code).toBe(0);
    expect(json(read)).toMatchObject([
      { step: 'ticketing.api_call', caller: 'cli', outcome: 'ok', connection: 'support' },
    ]);
    expect(json(read)).toHaveLength(1);
    expect(read.out).not.toContain(A_INPUT_VALUE);
    const text = await cli('--tenant', 'a', 'audit');
    expect(text.out).toContain('ticketing.api_call');
    expect(text.out).not.toContain(A_INPUT_VALUE);

    const set = await cli(
      'tenants',
      'limits',
      'set',
      'a',
      '--calls-per-minute',
      '600',
      '--credits-per-day',
      '5000',
      '--json',
    );
    expect(json(set)).toEqual({ tenant: 'a', limits: { callsPerMinute: 600, creditsPerDay: 5000 } });
    expect(json(await cli('--tenant', 'a', 'tenants', 'limits', 'show', '--json')).limits).toEqual({
      callsPerMinute: 600,
      creditsPerDay: 5000,
    });
    expect(json(await cli('tenants', 'limits', 'show', 'b', '--json')).limits).toEqual({});
    expect(
      (await cli('--tenant', 'b', 'tenants', 'limits', 'set', 'a', '--calls-per-minute', '1')).code,
    ).toBe(2);
    expect((await cli('tenants', 'limits', 'set', 'a', '--calls-per-minute', '0')).code).toBe(2);
    expect((await cli('--tenant', 'a', 'audit', '--since', 'yesterday')).code).toBe(2);
    // Without Redis each CLI process counts its own calls (the in-process coordinator): the
    // limit across processes is the Redis suite's (test/runtime/tenant-limits.test.ts).
  });
});
