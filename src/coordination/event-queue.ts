import { DEFAULT_TENANT, parseTenantId } from '../model/tenant-id.js';
import type { TriggerEvent } from '../model/trigger-event.js';
import { connectRedis, type IoRedisClient } from '../peers/load-ioredis.js';
import { missingPeer } from '../peers/optional-peer.js';
import { metricsRegistered, withExtractedContext } from '../telemetry/index.js';
import { TurnBatch } from '../values/turn-batch.js';
import {
  countDeadLetter,
  eventOf,
  processTraced,
  type QueuedEvent,
  reportQueueDepth,
  sendTraced,
} from './queued-trace.js';
import { redisFailure } from './redis-failure.js';
import { JsonText, serializedJobQueue } from './serialized-job-queue.js';

/** The semver range of BullMQ this package is written against. */
export const BULLMQ_RANGE = '^6.7.0';
export const EVENTS_QUEUE = 'toolsteps-events';
export const DEAD_EVENTS_QUEUE = 'toolsteps-events-dead';

export async function loadBullmq(): Promise<Pick<typeof import('bullmq'), 'Queue' | 'Worker' | 'Job'>> {
  return import('bullmq').catch(
    missingPeer('bullmq', BULLMQ_RANGE, 'The event queue (listen --queue, toolsteps worker)'),
  );
}

/**
 * The job id of an event: its tenant (but the default one's, whose ids
 * stay as before tenants), its subscription and the provider's event id, so
 * a duplicate delivery (to this worker or another) adds nothing and two
 * tenants' events never share a job. BullMQ reserves `:` in ids, so it (and
 * `%`, to keep the mapping one-to-one) is percent-encoded; a tenant id has
 * neither, nor a `.`.
 */
export function eventJobId(event: Pick<TriggerEvent, 'tenant' | 'subscription' | 'event_id'>): string {
  const encode = (text: string) => text.replace(/%/g, '%25').replace(/:/g, '%3A');
  const id = `${encode(event.subscription)}.${encode(event.event_id)}`;
  return event.tenant === undefined || event.tenant === DEFAULT_TENANT ? id : `${event.tenant}/${id}`;
}

export interface EventQueueOptions {
  redisUrl: string;
  /** Key prefix of the queues; default `toolsteps`. */
  prefix?: string;
  /** Runs per event before it goes to the dead-letter queue. Default 5. */
  attempts?: number;
  /** First retry after this, doubling. Default 1 s. */
  backoffMs?: number;
}

const DAY_S = 24 * 60 * 60;

/**
 * A queued event with its tenant checked: one queued before tenants has
 * none and is the default tenant's; one whose tenant is no tenant id
 * (written into Redis by someone else) fails, and is never handed on.
 * @throws InputError for a malformed tenant.
 */
function withTenant(event: TriggerEvent): TriggerEvent {
  return { ...event, tenant: parseTenantId(event.tenant ?? DEFAULT_TENANT) };
}

/**
 * Events not yet done: waiting, delayed, prioritized or running; undefined
 * while `client` is not connected. Not asked then: ioredis would hold the
 * command until Redis came back, and the queue's close would wait for it.
 */
const depthOf = (queue: import('bullmq').Queue, client: IoRedisClient) => async () => {
  if (client.status !== 'ready') return undefined;
  const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
};

/** One job of a batch: what BullMQ's `addBulk` takes. */
interface QueuedJob {
  name: string;
  data: JsonText;
  opts: { jobId: string };
}

/**
 * Where `listen --queue` puts accepted events: a durable BullMQ queue. The
 * events accepted in one turn of the event loop go on it in one round trip
 * (`addBulk`, one pipeline; `add` for one alone), each serialised once.
 */
export class EventQueue {
  private readonly stopReporting: () => Promise<void>;
  private readonly adds = new TurnBatch<QueuedJob, void>(async (jobs) => {
    // A job alone is added as one script call: addBulk's ioredis pipeline costs more to build (every
    // script BullMQ defines is copied onto it) than the add itself, and a quiet turn holds one event.
    const [only] = jobs;
    const adding =
      jobs.length === 1 && only ? this.queue.add(only.name, only.data, only.opts) : this.queue.addBulk(jobs);
    await adding.catch((error: unknown) => {
      throw redisFailure(this.client, error);
    });
    return [];
  });

  private constructor(
    private readonly queue: import('bullmq').Queue,
    private readonly client: IoRedisClient,
  ) {
    this.stopReporting = reportQueueDepth(EVENTS_QUEUE, depthOf(queue, client));
  }

  static async open(options: EventQueueOptions): Promise<EventQueue> {
    const Queue = serializedJobQueue(await loadBullmq());
    const client = await connectRedis(options.redisUrl);
    const queue = new Queue(EVENTS_QUEUE, {
      connection: client,
      prefix: options.prefix ?? 'toolsteps',
      defaultJobOptions: {
        attempts: options.attempts ?? 5,
        backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
        // Finished jobs are kept a day, so a late duplicate's id still finds its job.
        removeOnComplete: { age: DAY_S },
        removeOnFail: { age: 7 * DAY_S },
      },
    });
    // Unheard, BullMQ prints every failed reconnect; a failed `add` says it to its caller.
    queue.on('error', () => undefined);
    return new EventQueue(queue, client);
  }

  /**
   * Adds the event once: a job with its id already there (waiting, running or done) is left as it is.
   * `json` is the event as JSON, when the caller has it already.
   * @throws NetworkError when Redis does not take it (`redisFailure`).
   */
  async add(event: TriggerEvent, json = JSON.stringify(event)): Promise<void> {
    const jobId = eventJobId(event);
    await sendTraced(EVENTS_QUEUE, jobId, event, json, (data) =>
      this.adds.add({ name: event.trigger, data: new JsonText(data), opts: { jobId } }),
    );
  }

  async close(): Promise<void> {
    await this.stopReporting();
    await this.queue.close();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

export interface EventWorkerOptions extends EventQueueOptions {
  /** Runs one event; throwing retries it (backing off), and after the last attempt it goes dead. */
  handle(event: TriggerEvent): Promise<void>;
  /** Events run at once. Default 1. */
  concurrency?: number;
  /** How long a worker's hold on a job lasts without renewal: a killed worker's job is retried after it. Default 30 s. */
  leaseMs?: number;
  onCompleted?(event: TriggerEvent): void;
  onDead?(event: TriggerEvent, reason: string): void;
}

/**
 * `toolsteps worker`: takes events from the queue and runs the hand-over.
 * BullMQ holds each job with a lock the worker renews; a worker that dies
 * mid-run stops renewing, the job is found stalled after `leaseMs` and run
 * again by another worker. A job out of attempts is copied to the
 * dead-letter queue with its last error.
 */
export async function runEventWorker(options: EventWorkerOptions): Promise<{ close(): Promise<void> }> {
  const { Queue, Worker } = await loadBullmq();
  const prefix = options.prefix ?? 'toolsteps';
  const [workerClient, deadClient] = await Promise.all([
    connectRedis(options.redisUrl, { maxRetriesPerRequest: null }),
    connectRedis(options.redisUrl),
  ]);
  const dead = new Queue(DEAD_EVENTS_QUEUE, { connection: deadClient, prefix });
  // Only read for the depth metric: without a meter provider there is no such reading.
  const events = metricsRegistered()
    ? new Queue(EVENTS_QUEUE, { connection: deadClient, prefix })
    : undefined;
  const stopReporting = events ? reportQueueDepth(EVENTS_QUEUE, depthOf(events, deadClient)) : async () => {};
  const leaseMs = options.leaseMs ?? 30_000;
  const run = (job: import('bullmq').Job<QueuedEvent>) =>
    processTraced(EVENTS_QUEUE, job, (event) => options.handle(withTenant(event)));
  const worker = new Worker<QueuedEvent>(EVENTS_QUEUE, run, {
    connection: workerClient,
    prefix,
    concurrency: options.concurrency ?? 1,
    lockDuration: leaseMs,
    stalledInterval: leaseMs,
    maxStalledCount: options.attempts ?? 5,
  });
  worker.on('completed', (job) => options.onCompleted?.(withTenant(eventOf(job.data))));
  worker.on('failed', (job, error) => {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    const reason = error.message;
    dead
      .add(
        job.name,
        { event: job.data, reason, attempts: job.attemptsMade },
        { jobId: job.id ?? eventJobId(job.data) },
      )
      .then(() => {
        countDeadLetter(EVENTS_QUEUE, job.data);
        // In the event's trace, so the line that says it went dead carries the trace's id.
        return withExtractedContext(job.data.trace_context ?? {}, async () =>
          options.onDead?.(eventOf(job.data), reason),
        );
      })
      .catch(() => undefined);
  });
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  return {
    close: async () => {
      await worker.close();
      await stopReporting();
      await events?.close();
      await dead.close();
      for (const client of [workerClient, deadClient]) await client.quit().catch(() => client.disconnect());
    },
  };
}
