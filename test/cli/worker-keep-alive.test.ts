import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { DEFAULT_TENANT } from '../../src/model/tenant-id.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import type { HealthChange } from '../../src/runtime/health-change.js';
import { KEEP_ALIVE_NEXT_PASS_KEY } from '../../src/runtime/keep-alive-schedule.js';
import { removeConnection } from '../../src/runtime/remove-connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { createRegistry } from '../../steps/index.js';
import {
  type CapturedChild,
  newEncryptionKey,
  spawnCaptured,
  waitFor,
} from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { sandboxTicketingConnection } from '../support/sandbox-ticketing-connection.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { MovedClock } from './support/moved-clock.js';

/**
 * `toolsteps worker` as operators run it (the bundle, 4 processes on one
 * Redis), over 90 days of a moved clock: the keep-alive schedule held in
 * Redis makes one pass per period between the four, each due connection is
 * renewed once per pass (counted at the sandbox), and a restart keeps the
 * rhythm instead of passing again at once. Then health events through the
 * trigger path (the worker's --forward-to, counted at the platform's side),
 * a worker killed with kill -9 mid-pass, serve sharing the schedule, and a
 * revocation that failed at a disconnect sent by the next pass.
 */

const DAY_MS = 86_400_000;
const REDIS_URL = testRedisUrl(10);
const PREFIX = testPrefix('worker-keep-alive');
const redisEnabled = await redisSuiteEnabled(REDIS_URL);

let main: string;
let folder: string;
let clock: MovedClock;
let sandbox: Sandbox;
let stores: RedisStores;
const env: Record<string, string> = {};
const children: CapturedChild[] = [];

beforeAll(async () => {
  if (!redisEnabled) return;
  ({ main } = await bundleForChild('toolsteps-worker-keep-alive'));
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-worker-keep-alive-'));
  clock = new MovedClock(folder);
  sandbox = await startSandbox({ clock });
  Object.assign(env, {
    TOOLSTEPS_HOME: folder,
    TOOLSTEPS_REDIS_URL: REDIS_URL,
    TOOLSTEPS_REDIS_PREFIX: PREFIX,
    TOOLSTEPS_ENCRYPTION_KEY: newEncryptionKey(),
    TOOLSTEPS_KEEP_ALIVE_POLL_MS: '40',
    ...clock.env(),
  });
  stores = await openRedisStores({ redisUrl: REDIS_URL, env });
}, 180_000);

afterAll(async () => {
  await stopAll();
  if (!redisEnabled) return;
  await stores?.close();
  await sandbox?.close();
  await clearTestKeys(REDIS_URL, PREFIX);
  await rm(folder, { recursive: true, force: true });
});

/** Stops every worker with SIGTERM and waits for each to end. */
async function stopAll(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
}

function startWorker(...args: string[]): CapturedChild {
  const started = spawnCaptured(main, ['worker', '--json', '--keep-alive-every', '1d', ...args], {
    ...process.env,
    ...env,
  });
  children.push(started);
  return started;
}

/** Passes reported so far by every worker started (their `kept-alive` lines). */
const passesOf = (all: CapturedChild[]) =>
  all.flatMap(({ stderr }) => stderr.split('\n').filter((line) => line.startsWith('{"kept-alive"')));

describe.skipIf(!redisEnabled)(
  'toolsteps worker: the keep-alive loop across 4 processes on one Redis',
  () => {
    it('90 days: one pass per day between the four, one refresh per due connection, counted at the sandbox; a restart keeps the rhythm', async () => {
      const store = stores.connections;
      await store.put(sandboxTicketingConnection(sandbox, clock, 'idle-a'));
      await clock.advance(5 * DAY_MS);
      await store.put(sandboxTicketingConnection(sandbox, clock, 'idle-b'));
      const all: CapturedChild[] = [];
      for (let index = 0; index < 4; index += 1) all.push(startWorker());
      // The first worker up finds no schedule in Redis and passes at once.
      await waitFor(() => passesOf(all).length === 1, 'the first pass', 60_000);
      let refreshes = 0;
      for (let day = 1; day <= 90; day += 1) {
        const before = sandbox.ticketing.oauth.grants.refresh_token;
        await clock.advance(DAY_MS);
        const due = (await store.list()).filter(
          (connection) => (connection.refreshExpiresAt as number) - clock.now() <= 7 * DAY_MS,
        ).length;
        await waitFor(() => passesOf(all).length === day + 1, `the pass of day ${day}`, 30_000);
        const sent = sandbox.ticketing.oauth.grants.refresh_token - before;
        expect({ day, sent }).toEqual({ day, sent: due });
        refreshes += sent;
      }
      // No worker passed twice in a period: one line per day, no more, after a moment more.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(passesOf(all)).toHaveLength(91);
      const lines = passesOf(all).map((line) => JSON.parse(line)['kept-alive']);
      expect(lines.reduce((sum, line) => sum + line.refreshed, 0)).toBe(refreshes);
      expect(lines.flatMap((line) => line.failed)).toEqual([]);
      // Every worker took some of the passes' turns or none; together exactly one per period.
      expect(refreshes).toBeGreaterThanOrEqual(6);
      for (const connection of await store.list()) {
        expect(connection.refreshExpiresAt as number).toBeGreaterThan(clock.now() + 7 * DAY_MS);
        expect(connection.health?.state).toBe('healthy');
      }
      // The schedule lives in Redis: workers started anew wait for its next pass, not pass at once.
      await stopAll();
      const next = Number(await stores.coordinator.getValue(KEEP_ALIVE_NEXT_PASS_KEY));
      expect(next).toBeGreaterThan(clock.now());
      const restarted = [startWorker(), startWorker()];
      await waitFor(
        () => restarted.every(({ stderr }) => stderr.includes('"working"')),
        'the restarted workers',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(passesOf(restarted)).toHaveLength(0);
      await clock.advance(DAY_MS);
      await waitFor(() => passesOf(restarted).length === 1, 'the pass after the restart');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(passesOf(restarted)).toHaveLength(1);
    }, 300_000);
  },
);

/** No worker running, and the store holding one connection signed in now: `id`. */
async function aloneWith(id: string) {
  await stopAll();
  for (const connection of await stores.connections.list()) await stores.connections.remove(connection.id);
  const connection = sandboxTicketingConnection(sandbox, clock, id);
  await stores.connections.put(connection);
  return connection;
}

/** The platform's side: every health event forwarded to it, and what it answered (503 to the first, to make the worker retry). */
async function platform(): Promise<{
  url: string;
  server: Server;
  accepted: TriggerEvent[];
  attempts: number;
}> {
  const seen = { accepted: [] as TriggerEvent[], attempts: 0 };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.attempts += 1;
      if (seen.attempts === 1) {
        response.writeHead(503).end();
        return;
      }
      seen.accepted.push(JSON.parse(body) as TriggerEvent);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(seen, { url: `http://127.0.0.1:${port}/platform/events`, server });
}

describe.skipIf(!redisEnabled)('toolsteps worker: health events through the trigger path', () => {
  it('a grant the provider revoked: the platform gets one needs_reconnect event across 4 workers, retried after a 503; reconnected: one healthy event, then nothing', async () => {
    const store = stores.connections;
    const first = await aloneWith('gone');
    const receiver = await platform();
    try {
      const all: CapturedChild[] = [];
      for (let index = 0; index < 4; index += 1) all.push(startWorker('--forward-to', receiver.url));
      await waitFor(() => all.every(({ stderr }) => stderr.includes('"working"')), 'the workers');
      const passed = passesOf(all).length;
      // The grant goes at the provider; 24 days on its refresh token is due and refused.
      sandbox.ticketing.oauth.revokeAccount('acme');
      await clock.advance(24 * DAY_MS);
      await waitFor(() => passesOf(all).length === passed + 1, 'the pass that finds it refused');
      for (let day = 1; day <= 3; day += 1) {
        await clock.advance(DAY_MS);
        await waitFor(() => passesOf(all).length === passed + 1 + day, `pass ${day} after`);
      }
      await waitFor(() => receiver.accepted.length === 1, 'the needs_reconnect event', 30_000);
      expect((await store.get('gone'))?.health?.state).toBe('needs_reconnect');
      // Reconnected: back to healthy, told once.
      const reconnected = sandboxTicketingConnection(sandbox, clock, 'gone');
      await store.put(reconnected);
      for (let day = 1; day <= 3; day += 1) {
        await clock.advance(DAY_MS);
        await waitFor(() => passesOf(all).length === passed + 4 + day, `pass ${day} after reconnecting`);
      }
      await waitFor(() => receiver.accepted.length === 2, 'the healthy event', 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.attempts).toBe(3);
      expect(receiver.accepted.map((event) => [event.trigger, event.event_id])).toEqual([
        ['connection.needs_reconnect', `gone.needs_reconnect.${first.updatedAt}`],
        ['connection.healthy', `gone.healthy.${reconnected.updatedAt}`],
      ]);
      const [told] = receiver.accepted;
      expect(told).toMatchObject({ tenant: 'default', subscription: 'connection-health' });
      expect((told?.payload as HealthChange | undefined)?.connection).toEqual({
        id: 'gone',
        integration: 'ticketing',
        label: null,
      });
      expect(JSON.stringify(receiver.accepted)).not.toMatch(/tkt_|refresh_token/);
      expect((await stores.connections.get('gone'))?.health?.state).toBe('healthy');
    } finally {
      await stopAll();
      receiver.server.close();
    }
  }, 300_000);
});

describe.skipIf(!redisEnabled)('toolsteps worker: killed with kill -9 mid keep-alive pass', () => {
  it('the refresh it was sending is dropped by the provider; a worker of the next period refreshes once, and the state says so', async () => {
    const store = stores.connections;
    const connection = await aloneWith('killed');
    const tokenRequests = () =>
      sandbox.server.requestLog.filter((entry) => entry.path.includes('/oauth/tokens')).length;
    const requestsBefore = tokenRequests();
    const grantsBefore = sandbox.ticketing.oauth.grants.refresh_token;
    // The token endpoint holds the first refresh; the provider drops it once its client is gone.
    sandbox.faults.add({
      target: 'ticketing',
      pathIncludes: '/oauth/tokens',
      count: 1,
      action: { kind: 'delay', ms: 20_000, dropIfAbandoned: true },
    });
    const doomed = startWorker();
    await waitFor(() => doomed.stderr.includes('"working"'), 'the first worker');
    await clock.advance(24 * DAY_MS);
    await waitFor(() => tokenRequests() === requestsBefore + 1, 'the refresh the first worker sends');
    const others = [startWorker(), startWorker(), startWorker()];
    await waitFor(() => others.every(({ stderr }) => stderr.includes('"working"')), 'the other workers');
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    // Its pass is lost with it; the next period's pass, in one of the others, finishes the work.
    await clock.advance(DAY_MS);
    await waitFor(() => passesOf(others).length === 1, 'the next pass', 90_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [line] = passesOf(others).map((text) => JSON.parse(text)['kept-alive']);
    expect(line).toMatchObject({ refreshed: 1, failed: [] });
    expect(passesOf(others)).toHaveLength(1);
    expect(tokenRequests()).toBe(requestsBefore + 2);
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(grantsBefore + 1);
    const saved = await store.get('killed');
    expect(saved?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
    expect(saved?.lastRefresh?.outcome).toBe('refreshed');
    expect(saved?.health?.state).toBe('healthy');
    await stopAll();
  }, 240_000);
});

describe.skipIf(!redisEnabled)('toolsteps serve beside a worker: one schedule', () => {
  it('serve and a worker on one Redis make one pass per period between them, and the due connection is renewed once', async () => {
    const connection = await aloneWith('served');
    const serve = spawnCaptured(main, ['serve', '--port', '0', '--json', '--keep-alive-every', '1d'], {
      ...process.env,
      ...env,
    });
    children.push(serve);
    const both = [serve, startWorker()];
    await waitFor(() => serve.stdout.includes('builder API at'), 'serve');
    await waitFor(() => both[1]?.stderr.includes('"working"') ?? false, 'the worker');
    const passed = passesOf(both).length;
    const grants = sandbox.ticketing.oauth.grants.refresh_token;
    await clock.advance(24 * DAY_MS);
    await waitFor(() => passesOf(both).length === passed + 1, 'the pass');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(passesOf(both)).toHaveLength(passed + 1);
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(grants + 1);
    const saved = await stores.connections.get('served');
    expect(saved?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
    expect(saved?.health?.state).toBe('healthy');
    await stopAll();
  }, 180_000);
});

describe.skipIf(!redisEnabled)('toolsteps worker: revocations a disconnect could not send', () => {
  it('the next keep-alive pass revokes the grant the provider failed to revoke at removal, once across 2 workers, and says so', async () => {
    await aloneWith('to-revoke');
    const registry = createRegistry();
    const runtime = new Runtime({ tenant: DEFAULT_TENANT, tenantStores: stores.tenants, clock });
    const revokedBefore = sandbox.ticketing.oauth.revocations.revoked;
    sandbox.faults.add({
      target: 'ticketing',
      method: 'DELETE',
      pathIncludes: '/oauth/tokens/',
      count: 1,
      action: { kind: 'status', status: 503 },
    });
    const removal = await removeConnection(runtime, 'to-revoke', {
      integration: (id) => registry.integration(id),
      pendingRevocations: stores.tenants,
    });
    expect(removal.revocation).toMatchObject({ state: 'pending', code: 'revocation_failed' });
    expect(await stores.tenants.pendingRevocations?.list()).toHaveLength(1);

    const both = [startWorker(), startWorker()];
    await waitFor(() => both.every(({ stderr }) => stderr.includes('"working"')), 'the workers');
    const passed = passesOf(both).length;
    await clock.advance(DAY_MS);
    await waitFor(() => passesOf(both).length === passed + 1, 'the pass');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = passesOf(both).map((text) => JSON.parse(text)['kept-alive']);
    expect(lines.at(-1)?.revocations).toEqual({ settled: 1, pending: 0, gaveUp: 0 });
    expect(sandbox.ticketing.oauth.revocations.revoked).toBe(revokedBefore + 1);
    expect(await stores.tenants.pendingRevocations?.list()).toEqual([]);
    await stopAll();
  }, 240_000);
});
