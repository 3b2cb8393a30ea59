import { DataPointType, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportQueueDepth } from '../../src/coordination/queued-trace.js';
import { otelApi } from '../../src/telemetry/index.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';

/**
 * `toolsteps.queue.depth` is an observable gauge: the depth is read when the
 * meter reader collects (so the export says the depth at that moment), a
 * reading that does not answer in time leaves the collection without a
 * point instead of holding it, and the stop's last reading is exported
 * without asking Redis again, after which the gauge reads no more.
 */
let sdk: TestOtelSdk;

beforeAll(async () => {
  sdk = startTestOtelSdk({ traces: false });
  await otelApi();
});

afterAll(() => sdk.shutdown());

/** The gauge's points in one collection, as [queue, value] pairs. */
async function depthPoints(): Promise<[unknown, number][]> {
  const resourceMetrics: ResourceMetrics = await sdk.metrics();
  const points: [unknown, number][] = [];
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== 'toolsteps.queue.depth') continue;
      expect(metric.dataPointType).toBe(DataPointType.GAUGE);
      for (const point of metric.dataPoints) {
        points.push([point.attributes['messaging.destination.name'], point.value as number]);
      }
    }
  }
  return points;
}

describe('the queue depth gauge', () => {
  it('reads the depth at each collection, exports the last reading once after the stop, then lets go', async () => {
    let depth = 3;
    let reads = 0;
    const stop = reportQueueDepth('events-a', async () => {
      reads += 1;
      return depth;
    });
    await otelApi();
    // Registration waits for the API; give it its turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(0);
    expect(await depthPoints()).toEqual([['events-a', 3]]);
    depth = 7;
    expect(await depthPoints()).toEqual([['events-a', 7]]);
    expect(reads).toBe(2);

    depth = 0;
    await stop();
    expect(reads).toBe(3);
    // The stop's reading, once, without asking Redis again (its client may be closed by now).
    expect(await depthPoints()).toEqual([['events-a', 0]]);
    // Let go: later collections read nothing more (the SDK's cumulative series keeps its last value).
    await depthPoints();
    expect(reads).toBe(3);
  });

  it('collects without a point when a reading fails or does not answer within its deadline', async () => {
    const failing = reportQueueDepth('events-failing', () => Promise.reject(new Error('connection closed')));
    const silent = reportQueueDepth('events-silent', () => new Promise<number>(() => {}), 200);
    await new Promise((resolve) => setImmediate(resolve));
    // A silent Redis holds the collection for its deadline, not forever (which the test's timeout would catch).
    const queues = (await depthPoints()).map(([queue]) => queue);
    expect(queues).not.toContain('events-failing');
    expect(queues).not.toContain('events-silent');
    await Promise.all([failing(), silent()]);
  });
});
