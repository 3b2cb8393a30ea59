import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/model/logger.js';
import {
  extractTraceContext,
  hashedPersonId,
  injectTraceContext,
  inSpan,
  instruments,
  otelApi,
  type SafeAttributes,
  safeAttributes,
  tracedLogger,
  urlTemplate,
  withExtractedContext,
} from '../../src/telemetry/index.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';

describe('telemetry off: nothing registered', () => {
  it('runs the function without a span and loads nothing', async () => {
    expect(await otelApi()).toBeUndefined();
    expect(await inSpan('x', { kind: 'internal', attributes: {} }, async (span) => span)).toBeUndefined();
    expect(injectTraceContext({})).toEqual({});
    expect(instruments()).toBeUndefined();
  });
});

describe('the seam, with the SDK registered', () => {
  let sdk: TestOtelSdk;
  beforeAll(() => {
    sdk = startTestOtelSdk();
  });
  afterEach(() => sdk.reset());
  afterAll(async () => {
    await sdk.shutdown();
  });

  it('starts a span under the active one, with only allowed attributes', async () => {
    const attributes = { 'toolsteps.step.id': 'a.b', 'user.email': 'x@example.com' } as SafeAttributes;
    await inSpan('outer', { kind: 'server', attributes: {} }, () =>
      inSpan('inner', { kind: 'internal', attributes }, async (span) => {
        expect(span).toBeDefined();
      }),
    );
    const [inner, outer] = sdk.spans();
    expect(inner?.name).toBe('inner');
    expect(inner?.parentSpanContext?.spanId).toBe(outer?.spanContext().spanId);
    expect(inner?.attributes).toEqual({ 'toolsteps.step.id': 'a.b' });
    expect(inner?.instrumentationScope.name).toBe('toolsteps');
  });

  it('records a throw by its code only, and throws it on', async () => {
    const failure = Object.assign(new Error('secret text from a provider'), { code: 'rate_limited' });
    await expect(
      inSpan('failing', { kind: 'internal', attributes: {} }, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    const [span] = sdk.spans();
    expect(span?.attributes['error.type']).toBe('rate_limited');
    expect(span?.status).toEqual({ code: 2, message: 'rate_limited' });
    expect(JSON.stringify(span?.events)).not.toContain('secret text');
  });

  it('carries a trace across a carrier, upper-case keys too', async () => {
    const carrier = await inSpan('producer', { kind: 'producer', attributes: {} }, async () =>
      injectTraceContext({}),
    );
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await withExtractedContext({ TRACEPARENT: carrier.traceparent as string }, () =>
      inSpan('consumer', { kind: 'consumer', attributes: {} }, async () => undefined),
    );
    await inSpan(
      'linked',
      { kind: 'consumer', attributes: {}, links: [carrier], parent: {} },
      async () => undefined,
    );
    const [producer, consumer, linked] = sdk.spans();
    expect(consumer?.spanContext().traceId).toBe(producer?.spanContext().traceId);
    expect(consumer?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
    expect(linked?.links[0]?.context.spanId).toBe(producer?.spanContext().spanId);
    expect(extractTraceContext(carrier)).toBeDefined();
  });

  it('adds trace ids to log lines written inside a span', async () => {
    const lines = new MemoryLogger();
    const logger = tracedLogger(lines);
    logger.info('outside');
    await inSpan('logging', { kind: 'internal', attributes: {} }, async () =>
      logger.warn('inside', { a: 1 }),
    );
    const [span] = sdk.spans();
    expect(lines.lines[0]).toEqual({ level: 'info', message: 'outside' });
    expect(lines.lines[1]?.data).toEqual({
      a: 1,
      trace_id: span?.spanContext().traceId,
      span_id: span?.spanContext().spanId,
    });
  });

  it('makes the instruments once per meter provider', async () => {
    const made = instruments();
    expect(made).toBeDefined();
    expect(instruments()).toBe(made);
    made?.invocations.add(1, safeAttributes({ 'toolsteps.step.id': 'a.b' }));
    const collected = await sdk.metrics();
    const names = collected.scopeMetrics.flatMap((scope) =>
      scope.metrics.map((metric) => metric.descriptor.name),
    );
    expect(names).toContain('toolsteps.invocations');
  });
});

describe('the W3C fallback, with no propagator registered', () => {
  it('writes and reads traceparent itself', async () => {
    const sdk = startTestOtelSdk({ propagator: false });
    try {
      const carrier = await inSpan('p', { kind: 'producer', attributes: {} }, async () =>
        injectTraceContext({}),
      );
      expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      await inSpan('c', { kind: 'consumer', attributes: {}, parent: carrier }, async () => undefined);
      const [producer, consumer] = sdk.spans();
      expect(consumer?.parentSpanContext?.spanId).toBe(producer?.spanContext().spanId);
    } finally {
      await sdk.shutdown();
    }
  });
});

describe('metrics alone, no tracer provider', () => {
  it('records metrics without starting spans', async () => {
    const sdk = startTestOtelSdk({ traces: false });
    try {
      const span = await inSpan('no span', { kind: 'internal', attributes: {} }, async (started) => started);
      expect(span).toBeUndefined();
      instruments()?.invocations.add(1, safeAttributes({ 'toolsteps.step.id': 'a.b' }));
      const collected = await sdk.metrics();
      expect(
        collected.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name)),
      ).toEqual(['toolsteps.invocations']);
      expect(sdk.spans()).toEqual([]);
    } finally {
      await sdk.shutdown();
    }
  });
});

describe('what may be an attribute', () => {
  it('templates a path: the integration’s template first, ids and queries out otherwise', () => {
    expect(urlTemplate('/api/v2/tickets/42.json?include=users', ['/api/v2/tickets/{id}.json'])).toBe(
      '/api/v2/tickets/{id}.json',
    );
    expect(urlTemplate('/api/v2/users/ann@example.com/x?q=secret')).toBe('/api/v2/users/{id}/x');
    expect(urlTemplate('/v13/deployments/dpl_8f2k1xQ9/events')).toBe('/v13/deployments/{id}/events');
    expect(urlTemplate('/v1/people/3fa85f64-5717-4562-b3fc-2c963f66afa6.json')).toBe('/v1/people/{id}.json');
    expect(urlTemplate('/api/v2/organizations/autocomplete.json')).toBe(
      '/api/v2/organizations/autocomplete.json',
    );
  });

  it('hashes a person’s id one way, the same each time', () => {
    expect(hashedPersonId('ann@example.com')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashedPersonId('ann@example.com')).toBe(hashedPersonId('ann@example.com'));
  });
});
