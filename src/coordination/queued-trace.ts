import type { TriggerEvent } from '../model/trigger-event.js';
import {
  injectTraceContext,
  inSpan,
  instruments,
  metricsRegistered,
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
 * trace context in the job data. With telemetry off the data is the event
 * as it was.
 */
export function sendTraced(
  queue: string,
  jobId: string,
  event: TriggerEvent,
  add: (data: QueuedEvent) => Promise<void>,
): Promise<void> {
  return inSpan(
    `send ${queue}`,
    { kind: 'producer', attributes: { ...messaging(queue, 'send', jobId), ...eventAttributes(event) } },
    async (span) => {
      const carrier = span ? injectTraceContext({}) : {};
      await add(Object.keys(carrier).length ? { ...event, trace_context: carrier } : event);
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

/** How often a process holding the queue reads its depth, when metrics are on. */
export const QUEUE_DEPTH_EVERY_MS = 15_000;

/**
 * Reports the queue's depth (events waiting, delayed or running) in
 * `toolsteps.queue.depth`, read from Redis now, every `everyMs`, and once
 * more when stopped: each reporting process's series holds the depth it last
 * read (the counter moves by the difference), so a dashboard takes their
 * maximum, not their sum. Does nothing unless a meter provider is registered.
 * Returns the stop, which reads one last time.
 */
export function reportQueueDepth(
  queue: string,
  count: () => Promise<number>,
  everyMs = QUEUE_DEPTH_EVERY_MS,
): () => Promise<void> {
  if (!metricsRegistered()) return async () => {};
  let reported = 0;
  const attributes = safeAttributes({ 'messaging.system': 'bullmq', 'messaging.destination.name': queue });
  const read = async () => {
    const depth = await count().catch(() => undefined);
    const counter = instruments()?.queueDepth;
    if (depth === undefined || !counter) return;
    counter.add(depth - reported, attributes);
    reported = depth;
  };
  void read();
  const timer = setInterval(() => void read(), everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await read();
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
