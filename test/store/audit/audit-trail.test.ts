import { randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import { AuditSeal } from '../../../src/store/audit/audit-chain.js';
import type { AuditRecord, AuditTrail, StepRunRecord } from '../../../src/store/audit/audit-trail.js';
import { FileAuditTrail } from '../../../src/store/files/file-audit-trail.js';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import { MemoryAuditTrail } from '../../../src/store/memory/memory-audit-trail.js';
import { RedisAuditTrail } from '../../../src/store/redis/redis-audit-trail.js';
import { RedisTenantStores } from '../../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';

const REDIS_URL = testRedisUrl(14);
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const postgresEnabled = await postgresSuiteEnabled();
const PREFIX = testPrefix('audit');
const [acme, globex] = [parseTenantId('acme'), parseTenantId('globex')];

const record = (minute: number, extra: Partial<StepRunRecord> = {}): StepRunRecord => ({
  at: new Date(Date.UTC(2026, 10, 26, 5, minute)).toISOString(),
  step: 'ticketing.create_ticket',
  access: 'write',
  connection: 'support',
  caller: 'cli',
  outcome: 'ok',
  ...extra,
});

let home: string;
const coordinators: RedisCoordinator[] = [];
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-audit-'));
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});
afterAll(async () => {
  for (const coordinator of coordinators) await coordinator.close();
  await rm(home, { recursive: true, force: true });
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});

async function redisTrail(name: string, maxLength?: number): Promise<RedisAuditTrail> {
  const coordinator = (await openCoordinator({
    redisUrl: REDIS_URL,
    prefix: `${PREFIX}-${name}`,
  })) as RedisCoordinator;
  coordinators.push(coordinator);
  return new RedisAuditTrail(
    coordinator.forTenant(acme),
    new AuditSeal(new SecretBox(randomBytes(32)), acme),
    maxLength,
  );
}

const backends: [string, boolean, () => Promise<AuditTrail>][] = [
  ['memory', true, async () => new MemoryAuditTrail()],
  ['file', true, async () => new FileAuditTrail(path.join(home, randomBytes(4).toString('hex')))],
  ['redis', redisEnabled, () => redisTrail(randomBytes(4).toString('hex'))],
];

describe.each(backends)('audit trail contract (%s)', (_name, enabled, make) => {
  it.skipIf(!enabled)(
    'keeps records in order, reads them since a time and at most a limit, newest kept',
    async () => {
      const trail = await make();
      expect(await trail.read()).toEqual([]);
      for (const minute of [1, 2, 3, 4]) await trail.append(record(minute, { connection: `c${minute}` }));
      await trail.append(record(5, { outcome: 'error', error_code: 'rate_limited', test: true }));
      const all = await trail.read();
      expect(all.map((one) => (one as StepRunRecord).connection)).toEqual([
        'c1',
        'c2',
        'c3',
        'c4',
        'support',
      ]);
      expect(all[4]).toEqual(record(5, { outcome: 'error', error_code: 'rate_limited', test: true }));
      const since = await trail.read({ since: Date.UTC(2026, 10, 26, 5, 3) });
      expect(since.map((one) => (one as StepRunRecord).connection)).toEqual(['c3', 'c4', 'support']);
      expect((await trail.read({ limit: 2 })).map((one) => (one as StepRunRecord).connection)).toEqual([
        'c4',
        'support',
      ]);
    },
  );

  it.skipIf(!enabled)('refuses a record that carries more than the record says (an input, say)', async () => {
    const trail = await make();
    const withInput = { ...record(1), input: { subject: 'secret' } } as unknown as AuditRecord;
    await expect(trail.append(withInput)).rejects.toThrow();
    expect(await trail.read()).toEqual([]);
  });
});

describe('file audit trail', () => {
  it('is one append-only file of JSON lines per tenant, mode 0600: earlier bytes never change', async () => {
    const stores = new FileTenantStores(path.join(home, 'tenants-home'));
    await stores.forTenant(acme).audit.append(record(1));
    const file = stores.forTenant(acme).audit.file;
    expect(file).toBe(path.join(home, 'tenants-home', 'tenants', 'acme', 'audit', 'trail.jsonl'));
    const first = await readFile(file, 'utf8');
    await Promise.all([2, 3, 4].map((minute) => stores.forTenant(acme).audit.append(record(minute))));
    await stores.forTenant(globex).audit.append(record(9, { connection: 'globex-desk' }));
    const after = await readFile(file, 'utf8');
    expect(after.startsWith(first)).toBe(true);
    expect(after.trimEnd().split('\n')).toHaveLength(4);
    expect(after).not.toContain('globex-desk');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await stores.forTenant(globex).audit.read()).toEqual([record(9, { connection: 'globex-desk' })]);
  });

  it('skips a torn last line (a crash mid-write), and the next record starts a line of its own', async () => {
    const trail = new FileAuditTrail(path.join(home, 'torn'));
    await trail.append(record(1));
    await appendFile(trail.file, JSON.stringify(record(2)).slice(0, 40));
    expect(await trail.read()).toEqual([record(1)]);
    await trail.append(record(3));
    expect(await trail.read()).toEqual([record(1), record(3)]);
    await writeFile(trail.file, 'not json\n{"at":1}\n', { flag: 'a' });
    expect(await trail.read()).toEqual([record(1), record(3)]);
  });

  it('is erased with its tenant, the default tenant included', async () => {
    const stores = new FileTenantStores(path.join(home, 'erase-home'));
    await stores.forTenant(acme).audit.append(record(1));
    await stores.forTenant(parseTenantId('default')).audit.append(record(2));
    await stores.eraseTenant(acme);
    await stores.eraseTenant(parseTenantId('default'));
    expect(await stores.forTenant(acme).audit.read()).toEqual([]);
    expect(await stores.forTenant(parseTenantId('default')).audit.read()).toEqual([]);
  });
});

describe.skipIf(!redisEnabled)('Redis audit trail (Redis)', () => {
  it('is a stream per tenant, capped near its length (XADD MAXLEN ~)', async () => {
    const trail = await redisTrail('capped', 50);
    expect(trail.key).toBe(`${PREFIX}-capped:t:acme:audit:trail`);
    for (let index = 0; index < 400; index += 1) await trail.append(record(index % 60));
    const client = coordinators.at(-1)!.client;
    const length = Number(await client.call('XLEN', trail.key));
    // `~` trims whole stream nodes (100 entries by default): near the cap, never all 400.
    expect(length).toBeGreaterThanOrEqual(50);
    expect(length).toBeLessThan(200);
    expect(await client.call('TYPE', trail.key)).toBe('stream');
  });

  it("erasing a tenant deletes its stream; the other tenant's stays", async () => {
    const coordinator = (await openCoordinator({
      redisUrl: REDIS_URL,
      prefix: `${PREFIX}-erase`,
    })) as RedisCoordinator;
    coordinators.push(coordinator);
    const stores = new RedisTenantStores(coordinator, new SecretBox(randomBytes(32)));
    await stores.forTenant(acme).audit.append(record(1));
    await stores.forTenant(globex).audit.append(record(2));
    await stores.eraseTenant(acme);
    expect(await stores.forTenant(acme).audit.read()).toEqual([]);
    expect(await stores.forTenant(globex).audit.read()).toEqual([record(2)]);
  });
});

describe.skipIf(!postgresEnabled)('Postgres audit trail (Postgres)', () => {
  const suite = usePostgresStores('audit');
  it('appends and reads per tenant behind the tenant wall, and is erased with its tenant', async () => {
    const trail = suite.stores.forTenant(acme).audit;
    for (const minute of [1, 2, 3]) await trail.append(record(minute));
    await suite.stores.forTenant(globex).audit.append(record(4, { connection: 'globex-desk' }));
    expect(await trail.read({ since: Date.UTC(2026, 10, 26, 5, 2) })).toEqual([record(2), record(3)]);
    expect(await trail.read({ limit: 1 })).toEqual([record(3)]);
    await suite.stores.eraseTenant(acme);
    expect(await trail.read()).toEqual([]);
    expect(await suite.stores.forTenant(globex).audit.read()).toEqual([
      record(4, { connection: 'globex-desk' }),
    ]);
  });

  it('keeps limits per tenant, erased with the tenant', async () => {
    await suite.stores.forTenant(acme).limits.set({ callsPerMinute: 600, creditsPerDay: 5000 });
    expect(await suite.stores.forTenant(acme).limits.get()).toEqual({
      callsPerMinute: 600,
      creditsPerDay: 5000,
    });
    expect(await suite.stores.forTenant(globex).limits.get()).toEqual({});
    await suite.stores.forTenant(acme).limits.set({ callsPerMinute: 10 });
    expect(await suite.stores.forTenant(acme).limits.get()).toEqual({ callsPerMinute: 10 });
    await suite.stores.eraseTenant(acme);
    expect(await suite.stores.forTenant(acme).limits.get()).toEqual({});
  });
});
