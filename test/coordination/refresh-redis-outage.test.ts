import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { connectRedis } from '../../src/peers/load-ioredis.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { RedisConnectionStore } from '../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import { catalogInvokers } from '../support/catalog-invoke.js';
import { freePort } from '../support/ports.js';
import { redisAnswers, redisSuiteEnabled, testRedisUrl } from '../support/test-redis.js';
import { ticketingOAuthConnection } from '../support/ticketing-oauth-connection.js';
import { newEncryptionKey, waitFor } from './support/worker-processes.js';

const enabled = await redisSuiteEnabled(testRedisUrl(7));
/** How long Redis stays down once the token endpoint has answered: the save fails meanwhile. */
const OUTAGE_MS = 3_000;

/** A Redis of this test's own that appends every write to its log before answering, so a restart keeps them. */
function redisServer(port: number, dir: string): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'],
    { cwd: dir, stdio: 'ignore' },
  );
}

describe.skipIf(!enabled)('a refresh whose save meets a Redis outage (a Redis of its own)', () => {
  let dir: string;
  let port: number;
  let server: ChildProcess;
  let url: string;
  let sandbox: Sandbox;
  let coordinator: RedisCoordinator;

  const stopRedis = async () => {
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await stopped;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-refresh-outage-'));
    port = await freePort();
    url = `redis://127.0.0.1:${port}/0`;
    server = redisServer(port, dir);
    await waitFor(() => redisAnswers(url), 'the test Redis to start', 30_000);
    sandbox = await startSandbox();
    // A client that gives up on a command at its first failed reconnect: the outage fails the save at once.
    coordinator = new RedisCoordinator(await connectRedis(url, { maxRetriesPerRequest: 1 }), {
      prefix: 'outage',
    });
  }, 60_000);

  afterAll(async () => {
    await coordinator?.close();
    server?.kill('SIGKILL');
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the new pair is kept until Redis is back and then saved: the call works, one refresh, and the next call uses it', async () => {
    const store = new RedisConnectionStore(
      coordinator,
      SecretBox.fromEnv({ TOOLSTEPS_ENCRYPTION_KEY: newEncryptionKey() }),
    );
    const now = Date.now();
    const connection = ticketingOAuthConnection(sandbox, 'outage-tickets', {
      expiresAt: now - 60_000,
      createdAt: now - 3_600_000,
    });
    await store.put(connection);
    let outage: Promise<void> | undefined;
    // Redis goes down the moment the token endpoint has answered, before the new pair is saved.
    const fetchThroughOutage: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (String(input).endsWith('/oauth/tokens') && !outage) {
        await stopRedis();
        outage = new Promise<void>((resolve) => setTimeout(resolve, OUTAGE_MS)).then(async () => {
          server = redisServer(port, dir);
          await waitFor(() => redisAnswers(url), 'the test Redis to start again', 30_000);
        });
      }
      return answer;
    };
    const runtime = new Runtime({ store, transport: { fetch: fetchThroughOutage } });
    const invokers = catalogInvokers(runtime, connection.id);

    const started = Date.now();
    const result = await invokers.invoke('ticketing.list_tickets', { limit: 1 });
    const waited = Date.now() - started;
    await outage;
    console.log(`[figures] refresh across a ${OUTAGE_MS} ms Redis outage: the call took ${waited} ms`);
    expect(result.output.tickets?.length).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(OUTAGE_MS - 500);
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);

    const saved = await store.get(connection.id);
    expect(saved?.secrets.refreshToken).not.toBe(connection.secrets.refreshToken);
    await invokers.invoke('ticketing.list_tickets', { limit: 1 });
    const bearers = sandbox.server.requestLog
      .filter((entry) => entry.path.startsWith('/acme/api/'))
      .map((entry) => entry.headers.authorization);
    expect(bearers).toEqual([`Bearer ${saved?.secrets.accessToken}`, `Bearer ${saved?.secrets.accessToken}`]);
    expect(sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  }, 120_000);
});
