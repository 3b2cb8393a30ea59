import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CONTROL_HEADER, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { retryPendingRevocations } from '../../src/connection/retry-pending-revocations.js';
import { openRedisStores } from '../../src/coordination/open-redis-stores.js';
import { ManualClock } from '../../src/model/clock.js';
import type { Connection } from '../../src/model/connection.js';
import { MemoryLogger } from '../../src/model/logger.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import { removeConnection } from '../../src/runtime/remove-connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { FileTenantStores } from '../../src/store/files/file-tenant-stores.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { PostgresTenantStores } from '../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import type { TenantStores } from '../../src/store/tenant-stores.js';
import { eraseTenant } from '../../src/tenants/erase-tenant.js';
import { createRegistry, integrations } from '../../steps/index.js';
import { sandboxTicketingConnection } from '../support/sandbox-ticketing-connection.js';
import { asSuperuser, ownMigratedDatabase, postgresSuiteEnabled } from '../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const MINUTE_MS = 60_000;
const REDIS_URL = testRedisUrl(15);
const PREFIX = testPrefix('revoke');
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const postgresEnabled = await postgresSuiteEnabled();
const integration = (id: string) => integrations.find((known) => known.id === id);
const registry = createRegistry();

const opened: { close(): Promise<void> }[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
  await Promise.all(folders.splice(0).map((folder) => fs.rm(folder, { recursive: true, force: true })));
});
afterAll(async () => {
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});

/** One backend's stores, and every byte it holds at rest, to search for a token. */
interface Backend {
  tenants: TenantStores;
  atRest(): Promise<string>;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every row of the tables that can hold a token, read behind the store's back, as text. */
async function postgresAtRest(database: string): Promise<string> {
  const tables = ['connections', 'pending_revocations', 'connection_refresh'];
  const dumps = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await asSuperuser(database, `SELECT * FROM toolsteps.${table}`);
      return JSON.stringify(rows);
    }),
  );
  return dumps.join('\n');
}

const backends: { name: string; enabled: boolean; open(): Promise<Backend> }[] = [
  {
    name: 'memory',
    enabled: true,
    open: async () => ({ tenants: new MemoryTenantStores(), atRest: async () => '' }),
  },
  {
    name: 'files',
    enabled: true,
    open: async () => {
      const home = await fs.mkdtemp(path.join(tmpdir(), 'toolsteps-revoke-'));
      folders.push(home);
      return {
        tenants: new FileTenantStores(home),
        atRest: async () =>
          (await Promise.all((await filesUnder(home)).map((file) => fs.readFile(file, 'utf8')))).join('\n'),
      };
    },
  },
  {
    name: 'Redis',
    enabled: redisEnabled,
    open: async () => {
      const prefix = `${PREFIX}-${randomBytes(4).toString('hex')}`;
      const stores = await openRedisStores({
        redisUrl: REDIS_URL,
        prefix,
        box: new SecretBox(randomBytes(32)),
      });
      opened.push(stores);
      const { client } = stores.coordinator;
      return {
        tenants: stores.tenants,
        atRest: async () => {
          const keys = (await client.call('KEYS', `${prefix}:*`)) as string[];
          const values = await Promise.all(
            keys.map(async (key) => {
              const type = await client.call('TYPE', key);
              if (type === 'hash') return JSON.stringify(await client.hgetall(key));
              if (type === 'string') return String((await client.call('GET', key)) ?? '');
              if (type === 'set') return (await client.smembers(key)).join(' ');
              return '';
            }),
          );
          return values.join('\n');
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: postgresEnabled,
    open: async () => {
      const database = await ownMigratedDatabase('revoke');
      const stores = await PostgresTenantStores.open({
        url: database.url,
        box: new SecretBox(randomBytes(32)),
      });
      opened.push({
        close: async () => {
          await stores.close();
          await database.drop();
        },
      });
      return { tenants: stores, atRest: () => postgresAtRest(database.name) };
    },
  },
];

async function sandboxAt(clock: ManualClock): Promise<Sandbox> {
  const sandbox = await startSandbox({ clock });
  opened.push(sandbox);
  return sandbox;
}

/** Makes the sandbox fail what matches, before the emulator acts (nothing is revoked), as a test would over its control API. */
async function fail(sandbox: Sandbox, rule: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONTROL_HEADER]: '1' },
    body: JSON.stringify(rule),
  });
  expect(answer.status).toBe(201);
}

const revocationFault = (count: number, action: Record<string, unknown>) => ({
  target: 'ticketing',
  method: 'DELETE',
  pathIncludes: '/oauth/tokens/',
  count,
  action,
});

/** Whether the sandbox still honours a refresh token (a refresh spends it, so only for the end of a test). */
async function refreshWorks(sandbox: Sandbox, refreshToken: string): Promise<boolean> {
  const answer = await fetch(`${sandbox.baseUrl('ticketing', 'acme')}/oauth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'toolsteps-cli',
    }),
  });
  return answer.status === 200;
}

function tokensOf(connection: Connection): string[] {
  return [connection.secrets.accessToken, connection.secrets.refreshToken].filter((token): token is string =>
    Boolean(token),
  );
}

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`revoking on removal, ${backend.name} store`, () => {
    async function setUp(tenant: TenantId = parseTenantId('default')) {
      const clock = new ManualClock(Date.UTC(2026, 2, 1));
      const sandbox = await sandboxAt(clock);
      const { tenants, atRest } = await backend.open();
      const logger = new MemoryLogger();
      const runtime = new Runtime({ tenant, tenantStores: tenants, clock, logger });
      const remove = (id: string, schedule?: { maxAttempts: number }) =>
        removeConnection(runtime, id, {
          integration,
          pendingRevocations: tenants,
          ...(schedule ? { schedule } : {}),
        });
      const retry = (more: { schedule?: { maxAttempts: number }; timeoutMs?: number } = {}) =>
        retryPendingRevocations(tenants, {
          integration,
          clock,
          logger,
          fetch: globalThis.fetch,
          dispatcher: undefined,
          ...more,
        });
      return { clock, sandbox, tenants, atRest, logger, runtime, remove, retry };
    }

    it('removes the connection and revokes its grant at the provider, counted once; nothing stays behind', async () => {
      const { clock, sandbox, runtime, remove, tenants, atRest } = await setUp();
      const connection = sandboxTicketingConnection(sandbox, clock, 'acme-support');
      await runtime.store.put(connection);
      const removal = await remove('acme-support');
      expect(removal).toEqual({
        id: 'acme-support',
        removed: true,
        revocation: { state: 'revoked', attempts: 1 },
      });
      expect(sandbox.ticketing.oauth.revocations).toEqual({ revoked: 1, unknown: 0 });
      expect(await runtime.store.get('acme-support')).toBeUndefined();
      expect(await tenants.pendingRevocations?.list()).toEqual([]);
      // The refresh token died with the access token.
      expect(await refreshWorks(sandbox, connection.secrets.refreshToken as string)).toBe(false);
      const stored = await atRest();
      for (const token of tokensOf(connection)) expect(stored).not.toContain(token);
    });

    it('renews an access token past its end first, then revokes the new pair: the provider refuses both old and new', async () => {
      const { clock, sandbox, runtime, remove } = await setUp();
      const connection = sandboxTicketingConnection(sandbox, clock, 'stale');
      await runtime.store.put(connection);
      clock.advance(3 * 60 * MINUTE_MS); // past the access token's end (2 h in the sandbox)
      const removal = await remove('stale');
      expect(removal.revocation.state).toBe('revoked');
      expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
      expect(sandbox.ticketing.oauth.revocations.revoked).toBe(1);
    });

    it('keeps a revocation the provider failed (503) as pending, sealed; a later retry completes it, counted once, not twice', async () => {
      const { clock, sandbox, runtime, remove, retry, tenants, atRest, logger } = await setUp();
      const connection = sandboxTicketingConnection(sandbox, clock, 'flaky');
      await runtime.store.put(connection);
      await fail(sandbox, revocationFault(1, { kind: 'status', status: 503 }));
      const removal = await remove('flaky');
      expect(removal.removed).toBe(true);
      expect(removal.revocation).toMatchObject({ state: 'pending', code: 'revocation_failed', attempts: 1 });
      expect(removal.revocation.nextAttemptAt).toBe(clock.now() + MINUTE_MS);
      expect(await runtime.store.get('flaky')).toBeUndefined();
      expect(sandbox.ticketing.oauth.revocations.revoked).toBe(0);
      const [pending] = (await tenants.pendingRevocations?.list()) ?? [];
      expect(pending).toMatchObject({
        tenant: 'default',
        attempts: 1,
        lastError: { code: 'revocation_failed', status: 503 },
      });
      // Sealed where the backend seals (Redis); the file store keeps it as it keeps connections: 0600 in a 0700 folder.
      const stored = await atRest();
      if (backend.name === 'Redis')
        for (const token of tokensOf(connection)) expect(stored).not.toContain(token);
      // Not due yet: nothing is sent.
      const early = await retry();
      expect(early.outcomes).toEqual([]);
      expect(early.waiting).toHaveLength(1);
      clock.advance(MINUTE_MS);
      const later = await retry();
      expect(later.outcomes).toEqual([
        {
          pendingId: pending?.id,
          tenant: 'default',
          connection: { id: 'flaky', integration: 'ticketing', label: null },
          revocation: { state: 'revoked', attempts: 2 },
        },
      ]);
      expect(await retry()).toEqual({ outcomes: [], waiting: [] });
      expect(sandbox.ticketing.oauth.revocations).toEqual({ revoked: 1, unknown: 0 });
      expect(await refreshWorks(sandbox, connection.secrets.refreshToken as string)).toBe(false);
      const after = `${await atRest()}\n${JSON.stringify([removal, later, logger.lines])}`;
      for (const token of tokensOf(connection)) expect(after).not.toContain(token);
    });

    it('retries a network failure and a timeout, then gives up after the bounded tries, with a report and nothing kept', async () => {
      const { clock, sandbox, runtime, tenants, atRest, logger, retry } = await setUp();
      const connection = sandboxTicketingConnection(sandbox, clock, 'down');
      await runtime.store.put(connection);
      await fail(sandbox, revocationFault(1, { kind: 'reset', when: 'before' }));
      await fail(sandbox, revocationFault(1, { kind: 'delay', ms: 2_000, dropIfAbandoned: true }));
      await fail(sandbox, revocationFault(5, { kind: 'status', status: 502 }));
      const schedule = { maxAttempts: 3 };
      const options = { integration, pendingRevocations: tenants, schedule };
      const removal = await removeConnection(runtime, 'down', options);
      expect(removal.revocation).toMatchObject({ state: 'pending', code: 'network_error', attempts: 1 });
      clock.advance(MINUTE_MS);
      const second = await retry({ schedule, timeoutMs: 300 });
      expect(second.outcomes[0]?.revocation).toMatchObject({
        state: 'pending',
        code: 'timeout',
        attempts: 2,
      });
      expect(second.outcomes[0]?.revocation.nextAttemptAt).toBe(clock.now() + 4 * MINUTE_MS);
      clock.advance(4 * MINUTE_MS);
      const third = await retry({ schedule });
      expect(third.outcomes[0]?.revocation).toMatchObject({
        state: 'gave_up',
        code: 'revocation_failed',
        attempts: 3,
      });
      expect(third.outcomes[0]?.revocation.reason).toContain("end the grant in the provider's settings");
      expect(await tenants.pendingRevocations?.list()).toEqual([]);
      expect(sandbox.ticketing.oauth.revocations.revoked).toBe(0);
      expect(
        logger.lines.some((line) => line.message === 'gave up revoking a removed connection at its provider'),
      ).toBe(true);
      const after = `${await atRest()}\n${JSON.stringify([removal, second, third, logger.lines])}`;
      for (const token of tokensOf(connection)) expect(after).not.toContain(token);
    });

    it('erasing a tenant revokes every connection of it; one that fails waits past the erasure and is completed by a retry', async () => {
      const tenant = parseTenantId('acme-co');
      const { clock, sandbox, runtime, tenants, retry } = await setUp(tenant);
      const first = sandboxTicketingConnection(sandbox, clock, 'support-one');
      const second = sandboxTicketingConnection(sandbox, clock, 'support-two');
      await runtime.store.put(first);
      await runtime.store.put(second);
      await runtime.store.put({
        id: 'enrich',
        integration: 'anz_data',
        kind: 'api_key',
        fields: {},
        secrets: { apiKey: 'anz-key-for-erasure' },
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      await fail(sandbox, revocationFault(1, { kind: 'status', status: 500 }));
      const erasure = await eraseTenant({ tenantStores: tenants, tenant, runtime, triggers: registry });
      expect(erasure.connections.map(({ id, revocation }) => [id, revocation.state]).sort()).toEqual([
        ['enrich', 'not_revocable'],
        ['support-one', 'pending'],
        ['support-two', 'revoked'],
      ]);
      expect(erasure.erased.connections).toBe(3);
      expect(sandbox.ticketing.oauth.revocations.revoked).toBe(1);
      expect(await tenants.forTenant(tenant).connections.list()).toEqual([]);
      expect((await tenants.pendingRevocations?.list())?.map((one) => one.tenant)).toEqual(['acme-co']);
      clock.advance(MINUTE_MS);
      const later = await retry();
      expect(later.outcomes.map((one) => [one.tenant, one.connection.id, one.revocation.state])).toEqual([
        ['acme-co', 'support-one', 'revoked'],
      ]);
      expect(sandbox.ticketing.oauth.revocations).toEqual({ revoked: 2, unknown: 0 });
      expect(await tenants.pendingRevocations?.list()).toEqual([]);
    });
  });
}

describe('what each integration revokes', () => {
  it('deployments: an app connection revokes its refresh and access tokens (RFC 7009); a long-lived integration token has no endpoint, and nothing is sent', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1));
    const sandbox = await sandboxAt(clock);
    const tenants = new MemoryTenantStores();
    const runtime = new Runtime({ tenantStores: tenants, clock });
    const tokens = sandbox.deployments.issueAppTokens();
    const base = {
      integration: 'deployments',
      kind: 'oauth2' as const,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    };
    const fields = { baseUrl: sandbox.baseUrl('deployments'), clientId: 'toolsteps-cli' };
    await runtime.store.put({
      ...base,
      id: 'app',
      fields,
      secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token as string },
    });
    const longLived = sandbox.deployments.oauth.issue('platform', 1, ['deployments']);
    await runtime.store.put({
      ...base,
      id: 'integration',
      fields,
      secrets: { accessToken: longLived.access_token },
    });
    const options = { integration, pendingRevocations: tenants };
    expect((await removeConnection(runtime, 'app', options)).revocation).toEqual({
      state: 'revoked',
      attempts: 1,
    });
    // The refresh token went first (its access token with it); the access token's own request found nothing left.
    expect(sandbox.deployments.appOAuth.revocations).toEqual({ revoked: 1, unknown: 1 });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    expect((await fetch(`${sandbox.baseUrl('deployments')}/v2/user`, { headers: auth })).status).toBe(403);
    const kept = await removeConnection(runtime, 'integration', options);
    expect(kept.revocation).toMatchObject({ state: 'not_revocable' });
    expect(kept.revocation.reason).toContain("an integration's long-lived token has no revocation endpoint");
    expect(sandbox.deployments.oauth.revocations).toEqual({ revoked: 0, unknown: 0 });
    expect(await tenants.pendingRevocations.list()).toEqual([]);
  });

  it('API-key integrations say there is nothing to revoke, each in its own words, and send nothing', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1));
    const tenants = new MemoryTenantStores();
    const runtime = new Runtime({ tenantStores: tenants, clock });
    for (const id of ['anz_data', 'contact_data', 'governance']) {
      const declared = integration(id)?.connection.revocation;
      expect(declared && 'unavailable' in declared ? declared.unavailable : undefined).toMatch(/API key/);
      await runtime.store.put({
        id: `key-${id.replace('_', '-')}`,
        integration: id,
        kind: 'api_key',
        fields: id === 'governance' ? { region: 'eu' } : {},
        secrets: { apiKey: 'a-key-that-must-not-show' },
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      const removal = await removeConnection(runtime, `key-${id.replace('_', '-')}`, { integration });
      expect(removal.revocation).toEqual({
        state: 'not_revocable',
        reason: (declared as { unavailable: string }).unavailable,
      });
    }
  });
});

describe('the file store’s pending revocations', () => {
  it('skips a damaged or planted file rather than stopping every other revocation', async () => {
    const home = await fs.mkdtemp(path.join(tmpdir(), 'toolsteps-revoke-files-'));
    folders.push(home);
    const tenants = new FileTenantStores(home);
    const clock = new ManualClock(Date.UTC(2026, 2, 1));
    const kept = {
      id: 'rv_0123456789abcdef0123',
      tenant: 'default',
      connection: {
        id: 'kept',
        integration: 'ticketing',
        kind: 'oauth2' as const,
        fields: { subdomain: 'acme' },
        secrets: { accessToken: 'kept-token' },
        createdAt: clock.now(),
        updatedAt: clock.now(),
      },
      attempts: 1,
      nextAttemptAt: clock.now(),
      createdAt: clock.now(),
    };
    await tenants.pendingRevocations.put(kept);
    await fs.writeFile(path.join(home, 'pending-revocations', 'rv_ffffffffffffffffffff.json'), '{"id":', {
      mode: 0o600,
    });
    await fs.writeFile(path.join(home, 'pending-revocations', 'rv_eeeeeeeeeeeeeeeeeeee.json'), '{"id":"x"}', {
      mode: 0o600,
    });
    expect((await tenants.pendingRevocations.list()).map((one) => one.id)).toEqual([kept.id]);
  });
});
