import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores } from '../../src/coordination/open-redis-stores.js';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import {
  type CapturedChild,
  everyRedisValue,
  newEncryptionKey,
  spawnCaptured,
  waitFor,
} from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { alive } from '../support/live-process.js';
import { type OwnRedis, startOwnRedis } from '../support/own-redis.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { signTicketing, subscriptionFor, ticketStatusEvent } from './trigger-fixtures.js';

/**
 * Faults around the hand-off, with `toolsteps listen` and `worker` as the
 * package ships them, in child processes: the listener killed with -9
 * mid-hand-off (issue 22, item 3), Redis lost right after a hand-off
 * succeeded (item 12), and a forward URL holding a token (item 10).
 */

const SUBSCRIPTION = 'sub_00000000000000f1';
const KEY = newEncryptionKey();
const SHARED_REDIS = testRedisUrl(9);
const sharedRedis = await redisSuiteEnabled(SHARED_REDIS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let main: string;
const running: CapturedChild[] = [];

beforeAll(async () => {
  ({ main } = await bundleForChild('toolsteps-hand-off-faults'));
}, 120_000);

afterEach(() => {
  for (const item of running.splice(0)) item.child.kill('SIGKILL');
});

/** `toolsteps <args>` in a child, with `env` added and Redis unset unless `env` sets it. */
function toolsteps(env: Record<string, string>, ...args: string[]): CapturedChild {
  const base = { ...process.env };
  for (const name of ['TOOLSTEPS_REDIS_URL', 'TOOLSTEPS_REDIS_PREFIX', 'TOOLSTEPS_HOME']) delete base[name];
  const started = spawnCaptured(main, args, { ...base, ...env });
  running.push(started);
  return started;
}

/** Starts `toolsteps listen --port 0 --json ...`; returns the process and its base URL. */
async function listen(env: Record<string, string>, ...flags: string[]) {
  const started = toolsteps(env, 'listen', '--port', '0', '--json', ...flags);
  await waitFor(() => started.stderr.includes('"listening"'), 'the listener to start', 60_000);
  const line = started.stderr.split('\n').find((text) => text.includes('"listening"')) as string;
  return { process: started, base: (JSON.parse(line) as { listening: { url: string } }).listening.url };
}

/** The agent platform events are forwarded to: it records what arrived and what it answered 2xx. */
class AgentPlatform {
  readonly server: Server;
  readonly arrived: string[] = [];
  readonly completed: string[] = [];
  /** Runs before answering; answering waits for it. `hold` never answers. */
  onArrival: (eventId: string) => Promise<'answer' | 'hold' | 'fail'> = async () => 'answer';
  private readonly held: ServerResponse[] = [];

  constructor() {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', async () => {
        const eventId = (JSON.parse(body) as { event_id: string }).event_id;
        this.arrived.push(eventId);
        const what = await this.onArrival(eventId);
        if (what === 'hold') {
          this.held.push(response);
          return;
        }
        if (what === 'fail') {
          response.writeHead(500).end();
          return;
        }
        this.completed.push(eventId);
        response.writeHead(204).end();
      });
    });
  }

  async url(pathAndQuery = '/run'): Promise<string> {
    if (!this.server.listening)
      await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${pathAndQuery}`;
  }

  async close(): Promise<void> {
    for (const response of this.held.splice(0)) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  runs(eventId: string): number {
    return this.completed.filter((id) => id === eventId).length;
  }
}

/**
 * A TOOLSTEPS_HOME for the file-store listeners of the enclosing describe:
 * made before its tests with the one subscription the deliveries are signed
 * for, removed after them. Read it inside a test.
 */
function useSubscribedHome(name: string): () => string {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), `toolsteps-${name}-`));
    await new FileSubscriptionStore(home).put(
      subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }),
    );
  });
  afterAll(() => rm(home, { recursive: true, force: true }));
  return () => home;
}

/** One signed delivery of a ticket status change; the answer as `<status> <status field>`, or the error. */
async function deliverOnce(base: string, eventId: string): Promise<string> {
  const body = JSON.stringify(ticketStatusEvent({ id: eventId, time: new Date().toISOString() }));
  try {
    const response = await fetch(`${base}/hooks/${SUBSCRIPTION}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signTicketing(body, new Date().toISOString()) },
      body,
    });
    return `${response.status} ${((await response.json()) as { status: string }).status}`;
  } catch (error) {
    return `no answer (${(error as Error).message})`;
  }
}

/** The provider retrying until it gets a 2xx, every half second, for at most `budgetMs`; every answer. */
async function deliverAsProvider(base: string, eventId: string, budgetMs: number): Promise<string[]> {
  const answers: string[] = [];
  const started = Date.now();
  for (;;) {
    const answer = await deliverOnce(base, eventId);
    answers.push(answer);
    if (answer.startsWith('2') || Date.now() - started > budgetMs) return answers;
    await sleep(500);
  }
}

describe('listen killed with -9 mid-hand-off (file stores)', () => {
  const home = useSubscribedHome('hand-off-kill');
  let platform: AgentPlatform;

  beforeAll(() => {
    platform = new AgentPlatform();
  });

  afterAll(() => platform.close());

  it('a restarted listener takes the dead one’s claim over on a retry, and the event starts exactly once', async () => {
    const env = { TOOLSTEPS_HOME: home() };
    const target = await platform.url();
    const first = await listen(env, '--forward-to', target);
    platform.onArrival = async () => 'hold';
    const cutOff = deliverOnce(first.base, 'evt-killed');
    await waitFor(() => platform.arrived.includes('evt-killed'), 'the hand-off to be under way');
    first.process.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await cutOff).toMatch(/^no answer/);
    platform.onArrival = async () => 'answer';

    const second = await listen(env, '--forward-to', target);
    const answers = await deliverAsProvider(second.base, 'evt-killed', 30_000);
    const takenOverAfter = Date.now() - killedAt;
    const again = await deliverOnce(second.base, 'evt-killed');
    console.log(
      `[figures] listen killed mid-hand-off: taken over ${takenOverAfter} ms after the kill, answers ${answers.join(', ')}; then ${again}`,
    );
    expect(answers.at(-1)).toBe('200 started');
    expect(answers.every((answer) => answer === '409 in_flight' || answer === '200 started')).toBe(true);
    expect(again).toBe('200 duplicate');
    expect(platform.runs('evt-killed')).toBe(1);
    // One lease (5 s) after the last renewal, plus the restart: far inside any provider's retries.
    expect(takenOverAfter).toBeLessThan(20_000);
  }, 90_000);
});

describe('listen killed with -9 right after its 200s (file stores, done marks in one group commit)', () => {
  const home = useSubscribedHome('after-200-kill');

  /** The event ids a listener printed: one line per started event. */
  const startedBy = (child: CapturedChild) =>
    child.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { event_id: string }).event_id);

  it('forgets no event it answered 200, and starts concurrent copies of one event once', async () => {
    const env = { TOOLSTEPS_HOME: home() };
    const first = await listen(env);
    const ids = Array.from({ length: 40 }, (_, index) => `evt-batch-${index}`);
    // Forty events at once, and five copies of one of them at the same moment.
    const answers = await Promise.all([
      ...ids.map((id) => deliverOnce(first.base, id)),
      ...Array.from({ length: 5 }, () => deliverOnce(first.base, 'evt-batch-0')),
    ]);
    first.process.child.kill('SIGKILL');
    const startedFirst = startedBy(first.process);
    expect(answers.filter((answer) => answer === '200 started')).toHaveLength(40);
    expect(answers.every((answer) => /^(200 started|200 duplicate|409 in_flight)$/.test(answer))).toBe(true);
    expect(startedFirst.sort()).toEqual([...ids].sort());

    const second = await listen(env);
    const again = await Promise.all(ids.map((id) => deliverOnce(second.base, id)));
    expect(again.every((answer) => answer === '200 duplicate')).toBe(true);
    expect(startedBy(second.process)).toEqual([]);
  }, 90_000);
});

describe('listen --exec past its deadline (file stores)', () => {
  const home = useSubscribedHome('hand-off-exec');

  it('stops a command that traps TERM, and its grandchild, before the delivery is answered', async () => {
    const pids = path.join(home(), 'grandchildren');
    const command = `trap '' TERM; sleep 120 & echo $! >> '${pids}'; wait; wait; sleep 120`;
    const { base } = await listen({ TOOLSTEPS_HOME: home() }, '--exec', command, '--exec-timeout', '1');
    const started = Date.now();
    const answer = await deliverOnce(base, 'evt-stubborn');
    const took = Date.now() - started;
    const [grandchild] = (await readFile(pids, 'utf8')).split(/\s+/).filter(Boolean).map(Number);
    const gone = await new Promise<boolean>((resolve) => {
      const check = (left: number) => {
        if (!alive(grandchild as number)) resolve(true);
        else if (left <= 0) resolve(false);
        else setTimeout(() => check(left - 20), 20);
      };
      check(1_000);
    });
    console.log(`[figures] --exec trapping TERM, --exec-timeout 1: answered ${answer} after ${took} ms`);
    expect(answer).toBe('500 handler_failed');
    // The deadline, then the 5 s grace after SIGTERM, then SIGKILL to the group.
    expect(took).toBeGreaterThanOrEqual(6_000);
    expect(took).toBeLessThan(11_000);
    expect(gone).toBe(true);
  }, 60_000);
});

describe.skipIf(!sharedRedis)('Redis lost right after a hand-off succeeded (a Redis of its own)', () => {
  let redis: OwnRedis;
  let platform: AgentPlatform;
  const prefix = testPrefix('outage');
  const stores = () =>
    openRedisStores({ redisUrl: redis.url, prefix, env: { TOOLSTEPS_ENCRYPTION_KEY: KEY } });

  async function putSubscription(): Promise<void> {
    const opened = await stores();
    await opened.subscriptions.put(subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }));
    await opened.close();
  }

  beforeAll(async () => {
    // Keeping nothing on disk: a restart loses every key, so only the listener itself can remember
    // that the event was started.
    redis = await startOwnRedis('none');
    platform = new AgentPlatform();
  }, 60_000);

  afterAll(async () => {
    await redis.close();
    await platform.close();
  });

  it('the event starts exactly once: the done mark is retried until Redis is back, never released', async () => {
    await putSubscription();
    const env = {
      TOOLSTEPS_REDIS_URL: redis.url,
      TOOLSTEPS_REDIS_PREFIX: prefix,
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    };
    const listener = await listen(env, '--forward-to', await platform.url());
    // The platform takes the event, and Redis goes away before the 2xx reaches the listener.
    platform.onArrival = async () => {
      await redis.kill();
      return 'answer';
    };
    const first = deliverOnce(listener.base, 'evt-outage');
    await waitFor(() => platform.completed.includes('evt-outage'), 'the hand-off to succeed');
    platform.onArrival = async () => 'answer';
    // Longer than the Redis client holds a command (about 21 s): the first try to mark it done fails.
    await sleep(25_000);
    await redis.restart();
    await putSubscription(); // the restart lost it with everything else
    const firstAnswer = await first;
    const answers = await deliverAsProvider(listener.base, 'evt-outage', 30_000);
    console.log(
      `[figures] Redis killed after the hand-off, down 25 s, restarted empty: first answer ${firstAnswer}; retries ${answers.join(', ')}; runs ${platform.runs('evt-outage')}`,
    );
    expect(firstAnswer).toBe('200 started');
    expect(answers.at(-1)).toBe('200 duplicate');
    expect(platform.runs('evt-outage')).toBe(1);
    expect(platform.arrived.filter((id) => id === 'evt-outage')).toHaveLength(1);
  }, 150_000);
});

describe.skipIf(!sharedRedis)('a forward URL holding a token (listen --queue, worker, dead letters)', () => {
  const prefix = testPrefix('forward-secret');
  const SECRET = 's3cret';
  let platform: AgentPlatform;

  beforeAll(async () => {
    await clearTestKeys(SHARED_REDIS, prefix);
    const opened = await openRedisStores({
      redisUrl: SHARED_REDIS,
      prefix,
      env: { TOOLSTEPS_ENCRYPTION_KEY: KEY },
    });
    await opened.subscriptions.put(subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }));
    await opened.close();
    platform = new AgentPlatform();
    platform.onArrival = async () => 'fail';
  });

  afterAll(async () => {
    await platform.close();
    await clearTestKeys(SHARED_REDIS, prefix);
  });

  it('never reaches Redis (jobs, their failures, the event stream, dead letters), logs or errors', async () => {
    const env = {
      TOOLSTEPS_REDIS_URL: SHARED_REDIS,
      TOOLSTEPS_REDIS_PREFIX: prefix,
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    };
    const target = await platform.url(`/run?token=${SECRET}`);
    const queued = await listen(env, '--queue');
    const direct = await listen(env, '--forward-to', target);
    const worker = toolsteps(env, 'worker', '--forward-to', target, '--attempts', '2', '--json');
    await waitFor(() => worker.stderr.includes('"working"'), 'the worker to start', 60_000);

    expect(await deliverOnce(queued.base, 'evt-queued')).toBe('200 started');
    expect(await deliverOnce(direct.base, 'evt-direct')).toBe('500 handler_failed');
    // The queue's own retries (five, backing off from 1 s) run before the event goes dead.
    await waitFor(() => worker.stderr.includes('"dead"'), 'the event to reach the dead-letter queue', 60_000);

    const stored = await everyRedisValue(SHARED_REDIS, prefix);
    const dead = stored.filter((text) => text.includes('toolsteps-events-dead'));
    const failures = stored.filter((text) => text.includes('answered 500'));
    console.log(
      `[figures] forward URL with a token: ${platform.arrived.length} forwards tried, ${stored.length} keys and values under the prefix, ${dead.length} dead-letter keys, ${failures.length} values naming the failure`,
    );
    expect(platform.arrived).toContain('evt-queued');
    expect(dead.length).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.join('\n')).toContain('http://127.0.0.1:');
    for (const text of stored) expect(text).not.toContain(SECRET);
    for (const item of [queued.process, direct.process, worker]) {
      expect(item.stdout).not.toContain(SECRET);
      expect(item.stderr).not.toContain(SECRET);
    }
  }, 120_000);
});
