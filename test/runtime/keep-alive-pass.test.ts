import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { ManualClock } from '../../src/model/clock.js';
import { type HealthChange, keepAlivePass } from '../../src/runtime/keep-alive-pass.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { integrations } from '../../steps/index.js';
import { sandboxTicketingConnection } from '../support/sandbox-ticketing-connection.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const DAY_MS = 86_400_000;
const REDIS_URL = testRedisUrl(15);
const PREFIX = testPrefix('keep-alive');
const redisEnabled = await redisSuiteEnabled(REDIS_URL);
const integration = (id: string) => integrations.find((known) => known.id === id);

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});
afterAll(async () => {
  if (redisEnabled) await clearTestKeys(REDIS_URL, PREFIX);
});

async function sandboxAt(clock: ManualClock): Promise<Sandbox> {
  const sandbox = await startSandbox({ clock });
  opened.push(sandbox);
  return sandbox;
}

describe.skipIf(!redisEnabled)('keep-alive across 4 workers on one Redis', () => {
  it('keeps idle connections alive for 90 days: one refresh per due connection per pass, counted at the sandbox', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const sandbox = await sandboxAt(clock);
    const box = new SecretBox(randomBytes(32));
    const prefix = `${PREFIX}-${Date.now()}`;
    const workers: { stores: RedisStores; runtime: Runtime }[] = [];
    for (let index = 0; index < 4; index += 1) {
      const stores = await openRedisStores({ redisUrl: REDIS_URL, prefix, box });
      opened.push(stores);
      workers.push({
        stores,
        runtime: new Runtime({ store: stores.connections, clock, coordination: stores.coordinator }),
      });
    }
    const store = (workers[0] as { stores: RedisStores }).stores.connections;
    await store.put(sandboxTicketingConnection(sandbox, clock, 'idle-a'));
    clock.advance(5 * DAY_MS);
    await store.put(sandboxTicketingConnection(sandbox, clock, 'idle-b'));
    let refreshes = 0;
    for (let day = 1; day <= 90; day += 1) {
      clock.advance(DAY_MS);
      const due = (await store.list()).filter(
        (connection) => (connection.refreshExpiresAt as number) - clock.now() <= 7 * DAY_MS,
      ).length;
      const before = sandbox.ticketing.oauth.grants.refresh_token;
      const reports = await Promise.all(
        workers.map(({ runtime }) => keepAlivePass(runtime, { integration })),
      );
      const sent = sandbox.ticketing.oauth.grants.refresh_token - before;
      expect({ day, sent }).toEqual({ day, sent: due });
      expect(reports.flatMap((report) => report.refreshed)).toHaveLength(due);
      expect(reports.flatMap((report) => report.failed)).toEqual([]);
      expect(reports.flatMap((report) => report.told)).toEqual([]);
      refreshes += sent;
    }
    // Each lives 30 days and is renewed 7 before its end: every 23 days, 3 or 4 times each in 95 days.
    expect(refreshes).toBeGreaterThanOrEqual(6);
    for (const connection of await store.list()) {
      expect(connection.refreshExpiresAt as number).toBeGreaterThan(clock.now() + 7 * DAY_MS);
      expect(connection.health?.state).toBe('healthy');
      expect(connection.lastRefresh?.outcome).toBe('refreshed');
    }
    // Still works: a call on day 95 refreshes its lapsed access token with the kept-alive refresh token.
    const runtime = (workers[1] as { runtime: Runtime }).runtime;
    const ticketingIntegration = integration('ticketing');
    expect(ticketingIntegration).toBeDefined();
    const { ticketingSteps } = await import('../../steps/ticketing/steps.js');
    const listTickets = ticketingSteps.find((step) => step.id === 'ticketing.list_tickets');
    const result = await runtime.invoke(listTickets as never, { connection: 'idle-a', input: { limit: 1 } });
    expect(result.meta.attempts).toBeGreaterThanOrEqual(1);
  }, 240_000);
});

/** One worker in memory, on a sandbox and a clock of its own. */
async function oneProcess() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const sandbox = await sandboxAt(clock);
  const store = new MemoryConnectionStore();
  return { clock, sandbox, store, runtime: new Runtime({ store, clock }) };
}

describe('keep-alive and health', () => {
  it('an expired refresh token: needs_reconnect and one event (4 passes, no refresh sent); reconnected: healthy, not told again', async () => {
    const { clock, sandbox, store, runtime } = await oneProcess();
    await store.put(sandboxTicketingConnection(sandbox, clock, 'forgotten'));
    const told: HealthChange[] = [];
    const pass = () =>
      keepAlivePass(runtime, { integration, onHealthChange: (change) => void told.push(change) });
    clock.advance(31 * DAY_MS);
    for (let round = 0; round < 4; round += 1) {
      expect((await pass()).health).toEqual({ forgotten: 'needs_reconnect' });
    }
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(0);
    expect(told).toEqual([
      {
        type: 'connection.needs_reconnect',
        tenant: 'default',
        connection: { id: 'forgotten', integration: 'ticketing', label: null },
        health: {
          state: 'needs_reconnect',
          checkedAt: new Date(clock.now()).toISOString(),
          reason: 'the refresh token has expired',
        },
      },
    ]);
    expect(JSON.stringify(told)).not.toMatch(/tkt_/);
    // Reconnecting stores the connection anew.
    await store.put(sandboxTicketingConnection(sandbox, clock, 'forgotten'));
    expect((await pass()).health).toEqual({ forgotten: 'healthy' });
    clock.advance(DAY_MS);
    expect((await pass()).health).toEqual({ forgotten: 'healthy' });
    expect(told).toHaveLength(1);
  });

  it('a grant the provider revoked: the refresh is refused, the connection needs_reconnect and is told once', async () => {
    const { clock, sandbox, store, runtime } = await oneProcess();
    await store.put(sandboxTicketingConnection(sandbox, clock, 'revoked'));
    sandbox.ticketing.oauth.revokeAccount('acme');
    clock.advance(24 * DAY_MS);
    const told: HealthChange[] = [];
    const first = await keepAlivePass(runtime, {
      integration,
      onHealthChange: (change) => void told.push(change),
    });
    const second = await keepAlivePass(runtime, {
      integration,
      onHealthChange: (change) => void told.push(change),
    });
    expect(first.failed).toEqual([{ id: 'revoked', code: 'reauthorization_required' }]);
    expect(second.health).toEqual({ revoked: 'needs_reconnect' });
    // The refused token is not sent again: the refresh journal remembers the refusal.
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    expect(told.map((change) => change.type)).toEqual(['connection.needs_reconnect']);
    expect((await store.get('revoked'))?.lastRefresh).toMatchObject({
      outcome: 'refused',
      reason: 'invalid_grant',
    });
  });

  it('a connection without a refresh token is checked with a provider read, at most once a day, not refreshed', async () => {
    const { clock, sandbox, store, runtime } = await oneProcess();
    // An integration's deployments token: long-lived, no refresh token.
    const now = clock.now();
    await store.put({
      id: 'long-lived',
      integration: 'deployments',
      kind: 'oauth2',
      fields: { baseUrl: sandbox.baseUrl('deployments') },
      secrets: { accessToken: sandbox.deployments.issueToken() },
      createdAt: now,
      updatedAt: now,
    });
    expect((await keepAlivePass(runtime, { integration })).checked).toEqual(['long-lived']);
    clock.advance(DAY_MS / 2);
    expect((await keepAlivePass(runtime, { integration })).checked).toEqual([]);
    clock.advance(DAY_MS);
    const later = await keepAlivePass(runtime, { integration });
    expect(later.checked).toEqual(['long-lived']);
    expect(later.health).toEqual({ 'long-lived': 'healthy' });
    expect(sandbox.deployments.oauth.grants.refresh_token).toBe(0);
  });
});
