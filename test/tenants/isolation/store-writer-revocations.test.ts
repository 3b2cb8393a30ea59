import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import { type RunningMcpHttpServer, serveMcpHttp } from '../../../src/mcp/transports/serve-mcp.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { RedisTenantStores } from '../../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import type { TenantStores } from '../../../src/store/tenant-stores.js';
import { TokenKey } from '../../../src/tenants/token-key.js';
import { TokenKeys } from '../../../src/tenants/token-keys.js';
import { verifyToken } from '../../../src/tenants/verify-token.js';
import { createRegistry } from '../../../steps/index.js';
import { INITIALIZE, postMcp } from '../../agents/mcp/mcp-http-fixture.js';
import { cli, useCliHome } from '../../cli/cli-harness.js';
import { asSuperuser, ownMigratedDatabase, postgresSuiteEnabled } from '../../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import { asPreGuardKey, wrappedAs } from './pre-guard-key.js';
import { type Captured, postgresWriter, redisWriter, type StoreWriter } from './store-writer.js';
import { A, A_TOKEN, B, seedTwoTenants } from './two-tenants.js';

const KEY_TEXT = 'store-writer-suite-token-key-0123456789abcdef';
useCliHome('toolsteps-store-writer-', { scope: 'all', env: ['TOOLSTEPS_TOKEN_KEY'] });
const hour = () => new Date(Date.now() + 3_600_000);
const closing: (() => Promise<unknown>)[] = [];

/** `toolsteps --tenant <tenant> tokens create --scope mcp` as an operator runs it. */
async function token(tenant: string): Promise<{ token: string; id: string }> {
  const made = await cli('--tenant', tenant, 'tokens', 'create', '--json', '--scope', 'mcp');
  expect(made.code, made.out + made.err).toBe(0);
  return JSON.parse(made.out) as { token: string; id: string };
}

/** An MCP HTTP server verifying bearers against `stores`, as `toolsteps mcp --http` does with a token key. */
async function serve(stores: TenantStores): Promise<RunningMcpHttpServer> {
  const keys = new TokenKeys([new TokenKey(KEY_TEXT)]);
  const server = await serveMcpHttp({
    registry: createRegistry(),
    runtime: new Runtime({ tenantStores: stores, transport: 'fetch' }),
    mode: 'flat',
    watchIntervalMs: 0,
    token: 'the-single-server-token-0123456789',
    tokenAccess: {
      verify: (bearer) => verifyToken(bearer, { keys, revocations: stores.revocations, scope: 'mcp' }),
      runtimeFor: (tenant) => new Runtime({ tenant, tenantStores: stores, transport: 'fetch' }),
    },
  });
  closing.push(() => server.close());
  return server;
}

/** What an initialize with `bearer` answers: 200 in, 401 refused. */
const statusOf = async (server: RunningMcpHttpServer, bearer: string) =>
  (await postMcp(server.url, bearer, INITIALIZE)).status;

/** One backend under test: its stores, a second server's stores on the same store and keys, and the raw writer. */
interface Backend {
  stores: TenantStores;
  second(): Promise<TenantStores>;
  writer: StoreWriter;
  /** Sets a's limits the way the store kept them in plain before they were sealed, as a writer would. */
  raiseLimits(): Promise<void>;
  /** Deletes a's guard, as a writer would. */
  dropGuard(): Promise<void>;
  /** Leaves a as a toolsteps before guards left it: its data key wrapped as '1' (same key, same records), no guard. */
  preGuard(): Promise<void>;
  /** a's raw wrapped data key, which binding it opens under, and whether it has a guard. */
  stored(): Promise<{ generation: string; guarded: boolean }>;
  /** `toolsteps connections rekey` on a store of its own. */
  rekey(): Promise<unknown>;
}

/** The writer's three ways to undo what tenant a wrote since `before`, by name. */
function attacksOn(writer: StoreWriter, before: Captured): [string, () => Promise<void>][] {
  return [
    ['deleted', () => writer.drop(A, before)],
    ['replayed from before', () => writer.replay(A, before)],
    ['borrowed from tenant b', () => writer.borrow(A, B, before)],
  ];
}

function writerSuite(name: string, enabled: boolean, open: () => Promise<Backend>) {
  describe.skipIf(!enabled)(`a ${name} writer without the keys`, () => {
    let backend: Backend;
    beforeAll(async () => {
      process.env.TOOLSTEPS_TOKEN_KEY = KEY_TEXT;
      backend = await open();
      // Both tenants wrote before: each has its data key; b revoked a token of its own.
      await seedTwoTenants(backend.stores, 'http://127.0.0.1:9');
      await backend.stores.revocations.revoke(B, (await token(B)).id, hour());
    });

    it('cannot bring a revoked token back: deleted, replayed from before, or borrowed from b, it stays refused', async () => {
      const { stores, writer } = backend;
      const server = await serve(stores);
      const revoked = await token(A);
      const kept = await token(A);
      expect(await statusOf(server, revoked.token)).toBe(200);
      const before = await writer.capture(A);
      await stores.revocations.revoke(A, revoked.id, hour());
      const after = await writer.capture(A);
      expect(await statusOf(server, revoked.token)).toBe(401);
      for (const [attack, run] of attacksOn(writer, before)) {
        await run();
        for (let attempt = 0; attempt < 3; attempt += 1) {
          expect(await statusOf(server, revoked.token), attack).toBe(401);
        }
        await writer.replay(A, after);
        expect(await statusOf(server, kept.token), `${attack}, then put back`).toBe(200);
        expect(await statusOf(server, revoked.token), `${attack}, then put back`).toBe(401);
      }
      // A server started after the revocations were deleted never saw them, and refuses all the same.
      await writer.drop(A, before);
      const late = await serve(await backend.second());
      expect(await statusOf(late, revoked.token)).toBe(401);
      await writer.replay(A, after);
      expect(await statusOf(late, kept.token)).toBe(200);
    });

    it("cannot raise or remove a tenant's limits: they read as set, or are refused as tampered", async () => {
      const { stores, writer } = backend;
      const limits = () => stores.forTenant(A).limits.get();
      const before = await writer.capture(A);
      await stores.forTenant(A).limits.set({ callsPerMinute: 1 });
      const after = await writer.capture(A);
      await backend.raiseLimits();
      expect(await limits()).toEqual({ callsPerMinute: 1 });
      expect(await (await backend.second()).forTenant(A).limits.get()).toEqual({ callsPerMinute: 1 });
      for (const [attack, run] of attacksOn(writer, before)) {
        await run();
        await expect(limits(), attack).rejects.toMatchObject({ code: 'record_tampered' });
        await writer.replay(A, after);
        expect(await limits(), `${attack}, then put back`).toEqual({ callsPerMinute: 1 });
      }
      await writer.drop(A, before);
      const late = await backend.second();
      await expect(late.forTenant(A).limits.get()).rejects.toMatchObject({ code: 'record_tampered' });
      await writer.replay(A, after);
    });

    it('a tenant an earlier toolsteps left (pre-guard data key, no guard) is upgraded by its first read: its tokens work with no operator step', async () => {
      const held = await token(A);
      await backend.preGuard();
      expect(await backend.stored()).toEqual({ generation: '1', guarded: false });
      const stores = await backend.second();
      expect(await statusOf(await serve(stores), held.token)).toBe(200);
      expect(await backend.stored()).toEqual({ generation: '2', guarded: true });
      // The same data key: a's records open as before, and its guard works as any other.
      expect((await stores.forTenant(A).connections.get('support'))?.secrets).toMatchObject({
        accessToken: A_TOKEN,
      });
      expect(await stores.forTenant(A).limits.get()).toEqual({});
      await stores.revocations.revoke(A, held.id, hour());
      expect(await statusOf(await serve(await backend.second()), held.token)).toBe(401);
    });

    it('two processes upgrading the same tenant at once converge on one guard', async () => {
      await backend.preGuard();
      const [one, two] = [await backend.second(), await backend.second()];
      const reads = [one, two, one, two, one, two].map((stores) => stores.revocations.isRevoked(A, 'none'));
      expect(await Promise.all(reads)).toEqual([false, false, false, false, false, false]);
      expect(await backend.stored()).toEqual({ generation: '2', guarded: true });
      const revoked = await token(A);
      await one.revocations.revoke(A, revoked.id, hour());
      expect(await two.revocations.isRevoked(A, revoked.id)).toBe(true);
      await two.forTenant(A).limits.set({ callsPerMinute: 7 });
      expect(await one.forTenant(A).limits.get()).toEqual({ callsPerMinute: 7 });
    });

    it('after the upgrade a deleted guard is refused, and so is the pre-upgrade key put back with the guard deleted', async () => {
      const { writer } = backend;
      const held = await token(A);
      await backend.preGuard();
      const preUpgrade = await writer.capture(A);
      const server = await serve(await backend.second());
      expect(await statusOf(server, held.token)).toBe(200);
      const upgraded = await writer.capture(A);
      await backend.dropGuard();
      expect(await statusOf(server, held.token)).toBe(401);
      expect(await statusOf(await serve(await backend.second()), held.token)).toBe(401);
      await writer.replay(A, upgraded);
      expect(await statusOf(server, held.token)).toBe(200);
      // The rollback of the data key: refused by a process that saw the upgraded key.
      await writer.replay(A, preUpgrade);
      expect(await backend.stored()).toEqual({ generation: '1', guarded: false });
      for (let attempt = 0; attempt < 3; attempt += 1) expect(await statusOf(server, held.token)).toBe(401);
      await writer.replay(A, upgraded);
    });

    it('connections rekey upgrades a pre-guard tenant too, and leaves a deleted guard refused', async () => {
      const held = await token(A);
      await backend.preGuard();
      expect(await backend.rekey()).toMatchObject({ guardsMade: 1 });
      expect(await backend.stored()).toEqual({ generation: '2', guarded: true });
      expect(await statusOf(await serve(await backend.second()), held.token)).toBe(200);
      await backend.dropGuard();
      expect(await backend.rekey()).toMatchObject({ guardsMade: 0 });
      expect(await statusOf(await serve(await backend.second()), held.token)).toBe(401);
    });
  });
}

const REDIS_URL = testRedisUrl(13);
const prefix = testPrefix('store-writer');
writerSuite('Redis', await redisSuiteEnabled(REDIS_URL), async () => {
  const box = new SecretBox(randomBytes(32));
  const coordinator = async () => {
    const opened = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    closing.push(() => opened.close());
    return opened;
  };
  const writer = redisWriter(REDIS_URL, prefix);
  closing.push(
    () => writer.close(),
    () => clearTestKeys(REDIS_URL, prefix),
  );
  return {
    stores: new RedisTenantStores(await coordinator(), box),
    second: async () => new RedisTenantStores(await coordinator(), box),
    writer,
    raiseLimits: async () => {
      const client = new Redis(REDIS_URL);
      await client.set(`${prefix}:t:${A}:limits:tenant`, JSON.stringify({ callsPerMinute: 1_000_000 }));
      client.disconnect();
    },
    dropGuard: async () => {
      const client = new Redis(REDIS_URL);
      await client.del(`${prefix}:t:${A}:guard:tenant`);
      client.disconnect();
    },
    preGuard: async () => {
      const client = new Redis(REDIS_URL);
      const key = `${prefix}:t:${A}:datakey:current`;
      await client.set(key, asPreGuardKey(box, `${prefix}:t:${A}`, A, (await client.get(key)) as string));
      await client.del(`${prefix}:t:${A}:guard:tenant`);
      client.disconnect();
    },
    stored: async () => {
      const client = new Redis(REDIS_URL);
      const [wrapped, guard] = await client.mget(
        `${prefix}:t:${A}:datakey:current`,
        `${prefix}:t:${A}:guard:tenant`,
      );
      client.disconnect();
      return {
        generation: wrappedAs(box, `${prefix}:t:${A}`, A, wrapped as string),
        guarded: guard !== null,
      };
    },
    rekey: async () => new RedisTenantStores(await coordinator(), box).rekey(),
  };
});

writerSuite('Postgres', await postgresSuiteEnabled(), async () => {
  const box = new SecretBox(randomBytes(32));
  const database = await ownMigratedDatabase('writer');
  closing.push(() => database.drop());
  const open = async () => {
    const stores = await PostgresTenantStores.open({ url: database.url, box });
    closing.push(() => stores.close());
    return stores;
  };
  const stores = await open();
  return {
    stores,
    second: open,
    writer: postgresWriter(database.name),
    raiseLimits: async () => {
      await asSuperuser(
        database.name,
        `INSERT INTO toolsteps.tenant_limits (tenant, limits) VALUES ($1, $2)
         ON CONFLICT (tenant) DO UPDATE SET limits = EXCLUDED.limits`,
        [A, JSON.stringify({ callsPerMinute: 1_000_000 })],
      );
    },
    dropGuard: async () => {
      await asSuperuser(database.name, 'DELETE FROM toolsteps.tenant_guards WHERE tenant = $1', [A]);
    },
    preGuard: async () => {
      const wrapped = await postgresWrapped(database.name);
      await asSuperuser(database.name, 'UPDATE toolsteps.data_keys SET wrapped = $2 WHERE tenant = $1', [
        A,
        asPreGuardKey(box, 'postgres:toolsteps', A, wrapped),
      ]);
      await asSuperuser(database.name, 'DELETE FROM toolsteps.tenant_guards WHERE tenant = $1', [A]);
    },
    stored: async () => {
      const { rows } = await asSuperuser<{ n: number }>(
        database.name,
        'SELECT count(*)::int AS n FROM toolsteps.tenant_guards WHERE tenant = $1',
        [A],
      );
      const wrapped = await postgresWrapped(database.name);
      return { generation: wrappedAs(box, 'postgres:toolsteps', A, wrapped), guarded: rows[0]?.n === 1 };
    },
    rekey: async () => (await open()).rekey(),
  };
});

/** Tenant a's wrapped data key in the database, as its superuser reads it. */
async function postgresWrapped(database: string): Promise<string> {
  const { rows } = await asSuperuser<{ wrapped: string }>(
    database,
    'SELECT wrapped FROM toolsteps.data_keys WHERE tenant = $1',
    [A],
  );
  return rows[0]?.wrapped as string;
}

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => undefined);
});
