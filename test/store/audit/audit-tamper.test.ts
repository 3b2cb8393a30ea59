import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import { parseTenantId } from '../../../src/model/tenant-id.js';
import type { AuditTrail, StepRunRecord } from '../../../src/store/audit/audit-trail.js';
import { RedisTenantStores } from '../../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { asSuperuser, postgresSuiteEnabled, usePostgresStores } from '../../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';

const REDIS_URL = testRedisUrl(14);
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const postgresEnabled = await postgresSuiteEnabled();
const PREFIX = testPrefix('audit-tamper');
const acme = parseTenantId('acme');

const record = (minute: number): StepRunRecord => ({
  at: new Date(Date.UTC(2026, 10, 26, 5, minute)).toISOString(),
  step: 'ticketing.create_ticket',
  access: 'write',
  connection: `c${minute}`,
  caller: 'tok_page',
  outcome: 'ok',
});

/** Five records through the real store, then what verify says: nothing wrong yet. */
async function fiveRecords(trail: AuditTrail): Promise<void> {
  for (const minute of [1, 2, 3, 4, 5]) await trail.append(record(minute));
  const clean = await trail.verify!();
  expect(clean.problems).toEqual([]);
  expect(clean.records).toEqual([1, 2, 3, 4, 5].map(record));
}

const connections = async (trail: AuditTrail) =>
  (await trail.read()).map((one) => (one as StepRunRecord).connection);

/**
 * What a writer to the store without TOOLSTEPS_ENCRYPTION_KEY does to the
 * trail, through the store's own raw interface: each backend says how.
 */
interface RawTrail {
  /** The stored records, oldest first, as JSON texts. */
  list(): Promise<string[]>;
  replace(index: number, text: string): Promise<void>;
  remove(index: number): Promise<void>;
  /** Appends a record as the store would keep it, after the last. */
  add(text: string): Promise<void>;
}

function tamperingSuite(make: () => Promise<{ trail: () => AuditTrail; raw: RawTrail }>) {
  it('keeps one chain when two workers append at once', async () => {
    const { trail } = await make();
    const [one, two] = [trail(), trail()];
    await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((minute) => (minute % 2 ? one : two).append(record(minute))),
    );
    const reading = await trail().verify!();
    expect(reading.problems).toEqual([]);
    expect(reading.records).toHaveLength(8);
  });

  it('reports a record whose field was altered, and never returns it', async () => {
    const { trail, raw } = await make();
    await fiveRecords(trail());
    const stored = JSON.parse((await raw.list())[1]!);
    stored.r.caller = 'someone-else';
    await raw.replace(1, JSON.stringify(stored));
    const reading = await trail().verify!();
    expect(reading.problems).toEqual([expect.objectContaining({ kind: 'tampered', n: 2 })]);
    expect(reading.records.map((one) => (one as StepRunRecord).connection)).toEqual(['c1', 'c3', 'c4', 'c5']);
    expect(JSON.stringify(reading.records)).not.toContain('someone-else');
  });

  it('reports a forged record, with a made-up MAC or none', async () => {
    const { trail, raw } = await make();
    await fiveRecords(trail());
    const last = JSON.parse((await raw.list())[4]!);
    const forged = {
      r: { ...record(6), caller: 'forger' },
      n: 6,
      p: last.m,
      k: last.k,
      m: randomBytes(32).toString('base64url'),
    };
    await raw.add(JSON.stringify(forged));
    await raw.add(JSON.stringify({ ...record(7), caller: 'forger' }));
    const reading = await trail().verify!();
    expect(reading.problems.map((problem) => problem.kind)).toEqual(expect.arrayContaining(['tampered']));
    expect(reading.problems.filter((problem) => problem.kind === 'tampered')).toHaveLength(2);
    expect(JSON.stringify(reading.records)).not.toContain('forger');
    expect(await connections(trail())).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('reports a record deleted from the middle', async () => {
    const { trail, raw } = await make();
    await fiveRecords(trail());
    await raw.remove(2);
    const reading = await trail().verify!();
    expect(reading.problems).toEqual([expect.objectContaining({ kind: 'missing', n: 3 })]);
    expect(reading.problems[0]!.message).toContain('records 3 to 3');
  });

  it('reports records cut from the end, and the oldest deleted, by a fresh process too', async () => {
    const { trail, raw } = await make();
    await fiveRecords(trail());
    await raw.remove(4);
    await raw.remove(0);
    const reading = await trail().verify!();
    expect(reading.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'missing', n: 1 }),
        expect.objectContaining({ kind: 'missing', n: 5 }),
      ]),
    );
    expect(await connections(trail())).toEqual(['c2', 'c3', 'c4']);
  });
}

describe.skipIf(!redisEnabled)(
  'a sealed audit trail in Redis, tampered with by a writer without the key',
  () => {
    const coordinators: RedisCoordinator[] = [];
    afterAll(async () => {
      for (const coordinator of coordinators) await coordinator.close();
      await clearTestKeys(REDIS_URL, PREFIX);
    });
    tamperingSuite(async () => {
      const coordinator = (await openCoordinator({
        redisUrl: REDIS_URL,
        prefix: `${PREFIX}-${randomBytes(4).toString('hex')}`,
      })) as RedisCoordinator;
      coordinators.push(coordinator);
      const box = new SecretBox(randomBytes(32));
      const writer = new RedisTenantStores(coordinator, box).forTenant(acme).audit;
      const { client } = coordinator;
      const ids = async () =>
        ((await client.call('XRANGE', writer.key, '-', '+')) as [string, string[]][]).map(([id]) => id);
      const raw: RawTrail = {
        list: async () =>
          ((await client.call('XRANGE', writer.key, '-', '+')) as [string, string[]][]).map(
            ([, fields]) => fields[1]!,
          ),
        // A stream entry cannot be changed in place (nor re-added under an older id): the writer rewrites the stream.
        replace: async (index, text) => {
          const texts = await raw.list();
          texts[index] = text;
          await client.del(writer.key);
          for (const one of texts) await client.call('XADD', writer.key, '*', 'r', one);
        },
        remove: async (index) => {
          await client.call('XDEL', writer.key, (await ids())[index]!);
        },
        add: async (text) => {
          await client.call('XADD', writer.key, '*', 'r', text);
        },
      };
      // Each check reads through a fresh store, as another process would: it knows only what Redis holds.
      return { trail: () => new RedisTenantStores(coordinator, box).forTenant(acme).audit, raw };
    });
  },
);

describe.skipIf(!postgresEnabled)(
  'a sealed audit trail in Postgres, tampered with by a writer without the key',
  () => {
    const suite = usePostgresStores('audittamper');
    let tenant = 0;
    tamperingSuite(async () => {
      // A tenant of its own per check, in the suite's database.
      tenant += 1;
      const id = parseTenantId(`t${tenant}`);
      const sql = (text: string, values: unknown[]) => asSuperuser(suite.database.name, text, values);
      const seqs = async () =>
        (
          await sql(
            `SELECT seq FROM toolsteps.audit_events WHERE tenant = $1 AND at > '-infinity' ORDER BY seq`,
            [id],
          )
        ).rows.map((row) => (row as { seq: string }).seq);
      const raw: RawTrail = {
        list: async () =>
          (
            await sql(
              `SELECT record::text AS r FROM toolsteps.audit_events WHERE tenant = $1 AND at > '-infinity' ORDER BY seq`,
              [id],
            )
          ).rows.map((row) => (row as { r: string }).r),
        replace: async (index, text) => {
          await sql('UPDATE toolsteps.audit_events SET record = $2 WHERE seq = $1', [
            (await seqs())[index],
            text,
          ]);
        },
        remove: async (index) => {
          await sql('DELETE FROM toolsteps.audit_events WHERE seq = $1', [(await seqs())[index]]);
        },
        add: async (text) => {
          await sql('INSERT INTO toolsteps.audit_events (tenant, at, record) VALUES ($1, now(), $2)', [
            id,
            text,
          ]);
        },
      };
      return { trail: () => suite.stores.forTenant(id).audit, raw };
    });
  },
);
