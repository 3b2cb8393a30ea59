import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores, type RedisStores } from '../../src/coordination/open-redis-stores.js';
import { otelApi, withExtractedContext } from '../../src/telemetry/index.js';
import {
  type CapturedChild,
  newEncryptionKey,
  spawnCaptured,
  waitFor,
} from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import {
  connectionSecrets,
  jsonItems,
  privateDataFindings,
  sandboxPrivateValues,
} from '../support/private-data-scan.js';
import { clearTestKeys, redisSuite } from '../support/test-redis.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';
import {
  signTicketing,
  subscriptionFor,
  TICKETING_SECRET,
  ticketStatusEvent,
} from '../triggers/trigger-fixtures.js';

/**
 * The issue's "Done when" for the servers: one ticket event delivered to
 * `toolsteps listen --queue`, run by `toolsteps worker`, which forwards it to
 * a platform that invokes a step, is one trace in a collector. Each process
 * exports with the real OTLP/HTTP exporter (JSON) to a receiver this test
 * starts, which decodes what crossed the wire.
 */

const { url: REDIS_URL, prefix: PREFIX, enabled } = await redisSuite(10, 'otel');
const KEY = newEncryptionKey();
const SUBSCRIPTION = 'sub_0tel0123456789ab';

/** The platform the worker forwards to: it invokes a step for each event, in the trace the request carries. */
class Platform {
  readonly server: Server;
  readonly handled: string[] = [];
  readonly failures: unknown[] = [];

  private constructor(
    private readonly fixture: TicketingFixture,
    /** The platform's process traces too, as an embedder's would: its own SDK, the same collector. */
    readonly provider: NodeTracerProvider,
  ) {
    this.server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString()) as { event_id: string };
        const carrier = { traceparent: String(request.headers.traceparent ?? '') };
        withExtractedContext(carrier, () =>
          fixture.invoke('ticketing.get_ticket_info', { ticket_id: 1 }),
        ).then(
          () => {
            this.handled.push(event.event_id);
            response.writeHead(204).end();
          },
          (error: unknown) => {
            this.failures.push(error);
            response.writeHead(500).end();
          },
        );
      });
    });
  }
  static async start(receiver: OtlpReceiver): Promise<Platform> {
    const provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'platform' }),
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }), {
          scheduledDelayMillis: 100,
        }),
      ],
    });
    provider.register();
    await otelApi();
    return new Platform(await ticketingFixture(), provider);
  }

  /** Every secret and personal value the platform's sandbox and connection hold. */
  privateValues(): string[] {
    return [...sandboxPrivateValues(this.fixture.sandbox), ...connectionSecrets([this.fixture.connection])];
  }

  async close(): Promise<void> {
    this.server.close();
    await this.fixture.close();
    await this.provider.shutdown();
    trace.disable();
    metrics.disable();
  }

  async url(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events?token=platform-secret-token`;
  }
}

const byName = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);

describe.skipIf(!enabled)(
  'one webhook event is one trace: listen --queue, worker, forward, invocation',
  () => {
    const children: CapturedChild[] = [];
    let receiver: OtlpReceiver;
    let platform: Platform;
    let stores: RedisStores;
    let main: string;

    beforeAll(async () => {
      receiver = await OtlpReceiver.start();
      platform = await Platform.start(receiver);
      await clearTestKeys(REDIS_URL, PREFIX);
      stores = await openRedisStores({
        redisUrl: REDIS_URL,
        prefix: PREFIX,
        env: { TOOLSTEPS_ENCRYPTION_KEY: KEY },
      });
      await stores.subscriptions.put(
        subscriptionFor('ticketing.ticket_status_changed', { id: SUBSCRIPTION }),
      );
      ({ main } = await bundleForChild('toolsteps-otel-servers'));
    }, 120_000);

    afterAll(async () => {
      for (const child of children) child.child.kill('SIGKILL');
      await platform?.close();
      await stores?.close();
      await clearTestKeys(REDIS_URL, PREFIX);
      await receiver?.close();
    });

    function toolsteps(service: string, ...args: string[]): CapturedChild {
      const started = spawnCaptured(main, args, {
        ...process.env,
        TOOLSTEPS_REDIS_URL: REDIS_URL,
        TOOLSTEPS_REDIS_PREFIX: PREFIX,
        TOOLSTEPS_ENCRYPTION_KEY: KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: service,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_METRIC_EXPORT_INTERVAL: '500',
      });
      children.push(started);
      return started;
    }

    /** Stops a serving command as an operator would (SIGTERM) and waits for it to flush and exit. */
    async function stop(child: CapturedChild): Promise<void> {
      const exited = new Promise((resolve) => child.child.once('exit', resolve));
      child.child.kill('SIGTERM');
      await exited;
    }

    it('spans cover intake, queue, worker, forward, invocation and its HTTP attempts, each under the one before', async () => {
      const listener = toolsteps('listen', 'listen', '--port', '0', '--queue', '--json');
      await waitFor(() => listener.stderr.includes('"listening"'), 'the listener to start', 60_000);
      const line = listener.stderr.split('\n').find((text) => text.includes('"listening"')) as string;
      const base = (JSON.parse(line) as { listening: { url: string } }).listening.url;
      const worker = toolsteps('worker', 'worker', '--forward-to', await platform.url(), '--json');
      await waitFor(() => worker.stderr.includes('"working"'), 'the worker to start', 60_000);

      const body = JSON.stringify(ticketStatusEvent({ id: 'evt-otel-1', time: new Date().toISOString() }));
      const deliver = () =>
        fetch(`${base}/hooks/${SUBSCRIPTION}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signTicketing(body, new Date().toISOString()) },
          body,
        });
      expect((await deliver()).status).toBe(200);
      await waitFor(
        () => platform.handled.includes('evt-otel-1'),
        'the platform to handle the event',
        60_000,
      );
      // A duplicate and a forged delivery: counted, and each a span of its own.
      expect((await deliver()).status).toBe(200);
      const forged = await fetch(`${base}/hooks/${SUBSCRIPTION}`, { method: 'POST', body });
      expect(forged.status).toBe(401);
      await stop(worker);
      await stop(listener);
      await platform.provider.forceFlush();
      expect(platform.failures).toEqual([]);

      await receiver.until(
        (got) =>
          got.spans.some((span) => span.kind === 'client' && span.resource['service.name'] === 'platform'),
        'the invocation and its HTTP attempt',
      );
      const intake = receiver.spans.find(
        (span) =>
          span.kind === 'server' &&
          span.attributes['toolsteps.webhook.decision'] === 'started' &&
          span.resource['service.name'] === 'listen',
      ) as ReceivedSpan;
      expect(intake).toBeDefined();
      expect(intake.name).toBe('POST /hooks/{subscription}');
      expect(intake.parentSpanId).toBeUndefined();
      expect(intake.attributes).toMatchObject({
        'http.route': '/hooks/{subscription}',
        'http.response.status_code': 200,
        'toolsteps.tenant.id': 'default',
        'toolsteps.subscription.id': SUBSCRIPTION,
        'toolsteps.trigger.id': 'ticketing.ticket_status_changed',
        'toolsteps.webhook.verification': 'passed',
      });

      const spans = receiver.trace(intake.traceId);
      const [send] = byName(spans, 'send toolsteps-events');
      const [process_] = byName(spans, 'process toolsteps-events');
      const forward = spans.find((span) => span.attributes['toolsteps.handoff'] === 'forward');
      const invocation = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
      const attempts = spans.filter((span) => span.kind === 'client' && span.attributes['url.template']);
      expect(send).toMatchObject({
        kind: 'producer',
        parentSpanId: intake.spanId,
        resource: { 'service.name': 'listen' },
      });
      expect(process_).toMatchObject({
        kind: 'consumer',
        parentSpanId: send?.spanId,
        resource: { 'service.name': 'worker' },
      });
      expect(forward).toMatchObject({ kind: 'client', parentSpanId: process_?.spanId });
      expect(forward?.attributes).toMatchObject({
        'http.response.status_code': 204,
        'server.address': '127.0.0.1',
      });
      expect(invocation).toMatchObject({ parentSpanId: forward?.spanId });
      expect(invocation?.attributes).toMatchObject({ 'gen_ai.tool.name': 'ticketing.get_ticket_info' });
      expect(attempts.length).toBeGreaterThan(0);
      for (const attempt of attempts) expect(attempt.parentSpanId).toBe(invocation?.spanId);

      // Deliveries by decision, from the listener's last export as it stopped.
      const deliveries = receiver
        .latest('toolsteps.webhook.deliveries')
        .filter((point) => point.resource['service.name'] === 'listen');
      const decided = Object.fromEntries(
        deliveries.map((point) => [
          `${point.attributes['toolsteps.webhook.decision']}${point.attributes['toolsteps.webhook.reason'] ? `:${point.attributes['toolsteps.webhook.reason']}` : ''}`,
          point.value,
        ]),
      );
      expect(decided).toMatchObject({ started: 1, duplicate: 1, 'refused:bad_signature': 1 });
      expect(receiver.latest('toolsteps.queue.depth').length).toBeGreaterThan(0);

      // The worker's and listener's --json lines written inside a span carry its ids.
      const refusedLine = listener.stderr.split('\n').find((text) => text.includes('"refused"')) as string;
      expect(JSON.parse(refusedLine).refused).toMatchObject({
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      });

      // Nothing private crossed, in any process's export: the sandbox's seeds and the connection's
      // tokens, the forward target's token, the event's ticket text and people, the signing secret.
      const event = ticketStatusEvent();
      const values = [
        ...platform.privateValues(),
        'platform-secret-token',
        TICKETING_SECRET,
        event.detail.subject,
        event.detail.description,
        event.detail.requester_id,
        event.detail.assignee_id,
      ];
      const items = receiver.bodies.flatMap((body, index) =>
        jsonItems(`OTLP request ${index}`, JSON.parse(body)),
      );
      expect(privateDataFindings(items, values)).toEqual([]);
    }, 180_000);
  },
);
