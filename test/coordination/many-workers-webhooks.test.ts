import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';
import { deploymentEvent, signDeployments, subscriptionFor } from '../triggers/trigger-fixtures.js';
import { type CapturedChild, newEncryptionKey, spawnCaptured, waitFor } from './support/worker-processes.js';

const REDIS_URL = testRedisUrl(4);
const PREFIX = testPrefix('hooks');
const enabled = await redisSuiteEnabled(REDIS_URL);
const KEY = newEncryptionKey();
const SUBSCRIPTION = 'sub_0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the workers forward each event: counts the runs it completed (answered 2xx) and can hold them. */
class RunSink {
  readonly server: Server;
  completed: string[] = [];
  arrived: string[] = [];
  hold = false;
  held: ServerResponse[] = [];
  constructor() {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const eventId = (JSON.parse(body) as { event_id: string }).event_id;
        this.arrived.push(eventId);
        if (this.hold) {
          this.held.push(response);
          return;
        }
        this.completed.push(eventId);
        response.writeHead(204).end();
      });
    });
  }
  async url(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/run`;
  }
}

describe.skipIf(!enabled)(
  'webhooks across worker processes: listen --queue and toolsteps worker (Redis)',
  () => {
    let main: string;
    let stores: RedisStores;
    let sink: RunSink;
    let runUrl: string;
    const processes: CapturedChild[] = [];
    const prefix = PREFIX;
    const env = {
      TOOLSTEPS_REDIS_URL: REDIS_URL,
      TOOLSTEPS_REDIS_PREFIX: prefix,
      TOOLSTEPS_ENCRYPTION_KEY: KEY,
    };

    beforeAll(async () => {
      await clearTestKeys(REDIS_URL, PREFIX);
      // The CLI as the package ships it: one bundle, with ioredis (a peer) loaded from outside it.
      ({ main } = await bundleForChild('toolsteps-webhook-workers'));
      stores = await openRedisStores({ redisUrl: REDIS_URL, prefix, env });
      await stores.subscriptions.put(subscriptionFor('deployments.deployment_started', { id: SUBSCRIPTION }));
      sink = new RunSink();
      runUrl = await sink.url();
    }, 120_000);

    afterEach(() => {
      for (const item of processes.splice(0)) item.child.kill('SIGKILL');
    });

    afterAll(async () => {
      for (const response of sink.held) response.destroy();
      sink.server.closeAllConnections();
      sink.server.close();
      await stores.close();
      await clearTestKeys(REDIS_URL, PREFIX);
    });

    function toolsteps(...args: string[]): CapturedChild {
      const started = spawnCaptured(main, args, { ...process.env, ...env });
      processes.push(started);
      return started;
    }

    async function listener(): Promise<string> {
      const started = toolsteps('listen', '--port', '0', '--queue', '--json');
      await waitFor(() => started.stderr.includes('"listening"'), 'a listener to start', 60_000);
      const line = started.stderr.split('\n').find((text) => text.includes('"listening"')) as string;
      return (JSON.parse(line) as { listening: { url: string } }).listening.url;
    }

    async function worker(): Promise<CapturedChild> {
      const started = toolsteps('worker', '--forward-to', runUrl, '--lease-ms', '5000', '--json');
      await waitFor(() => started.stderr.includes('"working"'), 'a worker to start', 60_000);
      return started;
    }

    /** The provider delivering one event to a listener; retries a 409 (being handled) as it would. */
    async function deliver(base: string, eventId: string): Promise<string> {
      const body = JSON.stringify(
        deploymentEvent('deployment.created', { id: eventId, createdAt: Date.now() }),
      );
      for (;;) {
        const response = await fetch(`${base}/hooks/${SUBSCRIPTION}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signDeployments(body) },
          body,
        });
        const answer = (await response.json()) as { status: string };
        if (response.status !== 409) return `${response.status} ${answer.status}`;
        await sleep(200);
      }
    }

    it('one webhook delivered to two listeners starts exactly one run', async () => {
      const [first, second] = await Promise.all([listener(), listener()]);
      await Promise.all([worker(), worker()]);
      const answers = await Promise.all([deliver(first, 'evt_both:1'), deliver(second, 'evt_both:1')]);
      expect(answers.sort()).toEqual(['200 duplicate', '200 started']);
      await waitFor(() => sink.completed.includes('evt_both:1'), 'the run to complete');
      await sleep(6_000); // longer than a lease: a second run would have started by now
      const runs = sink.completed.filter((id) => id === 'evt_both:1').length;
      console.log(
        `[figures] webhooks: one event delivered to 2 listeners, 2 workers -> ${runs} run(s) completed`,
      );
      expect(runs).toBe(1);
    }, 180_000);

    it('again with the worker killed mid-run: the job is taken over after its lease, and exactly one run completes', async () => {
      const [first, second] = await Promise.all([listener(), listener()]);
      const doomed = await worker();
      sink.hold = true;
      const answers = await Promise.all([deliver(first, 'evt_kill:1'), deliver(second, 'evt_kill:1')]);
      expect(answers.sort()).toEqual(['200 duplicate', '200 started']);
      await waitFor(() => sink.arrived.includes('evt_kill:1'), 'the first worker to start the run');
      doomed.child.kill('SIGKILL');
      for (const response of sink.held.splice(0)) response.destroy();
      sink.hold = false;
      await worker();
      await waitFor(
        () => sink.completed.includes('evt_kill:1'),
        'another worker to complete the run',
        120_000,
      );
      await sleep(6_000);
      const runs = sink.completed.filter((id) => id === 'evt_kill:1').length;
      const starts = sink.arrived.filter((id) => id === 'evt_kill:1').length;
      console.log(
        `[figures] webhooks: first worker SIGKILLed mid-run -> ${starts} run(s) started, ${runs} completed`,
      );
      expect(runs).toBe(1);
    }, 180_000);
  },
);
