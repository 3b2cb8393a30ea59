import type { TriggerEvent } from '../model/trigger-event.js';
import {
  injectTraceContext,
  inSpan,
  instruments,
  metricsRegistered,
  type ObservableResult,
  otelApi,
  type SafeAttributes,
  safeAttributes,
  type TraceCarrier,
} from '../telemetry/index.js';

/**
 * An event as BullMQ's job data holds it: the event, and the trace context
 * of the span that queued it (`traceparent`, `tracestate`), so the worker's
 * span continues the intake's trace. Events queued before it have none.
 */
export type QueuedEvent = TriggerEvent & { trace_context?: TraceCarrier };

/** The event a job holds, without the trace context that rode along. */
export function eventOf(data: QueuedEvent): TriggerEvent {
  const { trace_context: _carrier, ...event } = data;
  return event;
}

/** The attributes of a queue span: the messaging conventions' (https://opentelemetry.io/docs/specs/semconv/messaging/). */
function messaging(queue: string, operation: 'send' | 'process', jobId: string | undefined): SafeAttributes {
  return {
    'messaging.system': 'bullmq',
    'messaging.operation.type': operation,
    'messaging.operation.name': operation === 'send' ? 'add' : 'process',
    'messaging.destination.name': queue,
    'messaging.message.id': jobId,
  };
}

const eventAttributes = (event: TriggerEvent): SafeAttributes => ({
  'toolsteps.tenant.id': event.tenant,
  'toolsteps.subscription.id': event.subscription,
  'toolsteps.trigger.id': event.trigger,
});

/**
 * Queues an event in a PRODUCER span (`send <queue>`), with the span's
 * trace context in the job data. `add` gets the job data as JSON: `json`
 * (the event's, serialised once by the caller) as it is with telemetry
 * off, with `trace_context` added to it otherwise.
 */
export function sendTraced(
  queue: string,
  jobId: string,
  event: TriggerEvent,
  json: string,
  add: (data: string) => Promise<void>,
): Promise<void> {
  return inSpan(
    `send ${queue}`,
    { kind: 'producer', attributes: { ...messaging(queue, 'send', jobId), ...eventAttributes(event) } },
    async (span) => {
      const carrier = span ? injectTraceContext({}) : {};
      // The event's JSON is an object with fields: the carrier goes in as one more, before its closing brace.
      await add(
        Object.keys(carrier).length
          ? `${json.slice(0, -1)},"trace_context":${JSON.stringify(carrier)}}`
          : json,
      );
    },
  );
}

/**
 * Runs a queued event in a CONSUMER span (`process <queue>`) whose parent is
 * the span that queued it, so one event is one trace from the intake to
 * what the worker hands it to; each attempt of a retried job is a span of
 * its own under that parent. The handler gets the event without the
 * trace context.
 */
export function processTraced(
  queue: string,
  job: { id?: string | undefined; data: QueuedEvent; attemptsMade: number },
  handle: (event: TriggerEvent) => Promise<void>,
): Promise<void> {
  const carrier = job.data.trace_context;
  const event = eventOf(job.data);
  return inSpan(
    `process ${queue}`,
    {
      kind: 'consumer',
      parent: carrier,
      attributes: {
        ...messaging(queue, 'process', job.id),
        ...eventAttributes(event),
        'toolsteps.attempts': job.attemptsMade + 1,
      },
    },
    () => handle(event),
  );
}

/** How long one reading of the queue's depth may wait on Redis before the collection goes on without it. */
export const QUEUE_DEPTH_READ_DEADLINE_MS = 2000;

/** `count()`, or undefined when it fails, has nothing to say, or has not answered within `deadlineMs`. */
async function readWithin(
  count: () => Promise<number | undefined>,
  deadlineMs: number,
): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), deadlineMs);
  });
  try {
    return await Promise.race([count().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reports the queue's depth (events waiting, delayed or running) in the
 * observable gauge `toolsteps.queue.depth`: read from Redis when the meter
 * reader collects, not on a timer of our own, so the exported value is the
 * depth at export time and a process without an export pays nothing. Each
 * reporting process observes the same queue, so a dashboard takes their
 * maximum, not their sum. Does nothing unless a meter provider is
 * registered. The returned stop reads one last time, which the next
 * collection (the SDK's flush at shutdown) exports once; the Redis client
 * may be closed after it.
 */
export function reportQueueDepth(
  queue: string,
  count: () => Promise<number | undefined>,
  deadlineMs = QUEUE_DEPTH_READ_DEADLINE_MS,
): () => Promise<void> {
  if (!metricsRegistered()) return async () => {};
  const attributes = safeAttributes({ 'messaging.system': 'bullmq', 'messaging.destination.name': queue });
  let lastRead: number | undefined;
  let stopped = false;
  const observe = async (result: ObservableResult): Promise<void> => {
    const depth = stopped ? lastRead : await readWithin(count, deadlineMs);
    if (depth !== undefined) result.observe(depth, attributes);
    // After the stop, the last reading is exported once and the gauge lets go of this queue.
    if (stopped) (await gauge)?.removeCallback(observe);
  };
  // The API is loaded on the first registered use; the instruments need it.
  const gauge = otelApi().then(() => {
    const queueDepth = instruments()?.queueDepth;
    queueDepth?.addCallback(observe);
    return queueDepth;
  });
  return async () => {
    lastRead = await readWithin(count, deadlineMs);
    stopped = true;
  };
}

/** Counts one event the queue gave up on (`toolsteps.queue.dead_letters`). */
export function countDeadLetter(queue: string, event: TriggerEvent): void {
  instruments()?.deadLetters.add(
    1,
    safeAttributes({
      'messaging.system': 'bullmq',
      'messaging.destination.name': queue,
      'toolsteps.trigger.id': event.trigger,
    }),
  );
}
