import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { KEEP_ALIVE_NEXT_PASS_KEY } from '../../src/runtime/keep-alive-schedule.js';
import {
  type CapturedChild,
  newEncryptionKey,
  spawnCaptured,
  waitFor,
} from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { ticketingOAuthConnection } from '../support/ticketing-oauth-connection.js';
import { MovedClock } from './support/moved-clock.js';

/**
 * `toolsteps worker` as operators run it (the bundle, 4 processes on one
 * Redis), over 90 days of a moved clock: the keep-alive schedule held in
 * Redis makes one pass per period between the four, each due connection is
 * renewed once per pass (counted at the sandbox), and a restart keeps the
 * rhythm instead of passing again at once.
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

function startWorker(): CapturedChild {
  const started = spawnCaptured(main, ['worker', '--json', '--keep-alive-every', '1d'], {
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
      await store.put(ticketingOAuthConnection(sandbox, 'idle-a', { now: clock.now(), asIssued: true }));
      await clock.advance(5 * DAY_MS);
      await store.put(ticketingOAuthConnection(sandbox, 'idle-b', { now: clock.now(), asIssued: true }));
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
