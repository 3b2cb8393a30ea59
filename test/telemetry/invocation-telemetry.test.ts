import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { contactDataFixture } from '../steps/contact-data/contact-data-fixture.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';
import { privateDataFindings, scanRun } from '../support/private-data-scan.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/**
 * Issue 39 with the real OpenTelemetry SDK registered as an embedder would:
 * a read, a write, a failure, a retry, a throttled answer and a token
 * refresh against the sandbox over real sockets, each an `execute_tool`
 * span under the caller's span with one CLIENT span per attempt, and the
 * metrics they leave. Every span and metric exported here is scanned for
 * the sandbox's secrets and personal values at the end.
 */

const WRITTEN = {
  subject: 'Printer on fire at the Wollongong office',
  description: 'Kim Okafor (kim.okafor@customer.example) reports smoke from the printer.',
};
const QUERY = 'status:open requester:riley@customer.example';

let sdk: TestOtelSdk;
let fx: TicketingFixture;
const exported: ReadableSpan[] = [];

beforeAll(async () => {
  sdk = startTestOtelSdk();
  fx = await ticketingFixture();
});

beforeEach(() => {
  exported.push(...sdk.spans());
  sdk.reset();
});

afterAll(async () => {
  await fx?.close();
  await sdk?.shutdown();
});

/** Runs `fn` under a span of the caller's (an agent's run, say), and answers that span's id. */
async function underCaller<T>(fn: () => Promise<T>): Promise<{ parent: string; value: T }> {
  const span = trace.getTracer('caller').startSpan('agent run');
  try {
    const value = await context.with(trace.setSpan(context.active(), span), fn);
    return { parent: span.spanContext().spanId, value };
  } finally {
    span.end();
  }
}

function named(prefix: string): ReadableSpan[] {
  return sdk.spans().filter((span) => span.name.startsWith(prefix));
}

function only(prefix: string): ReadableSpan {
  const [span, ...more] = named(prefix);
  expect(more).toEqual([]);
  if (!span) throw new Error(`no span named ${prefix}...`);
  return span;
}

function childrenOf(parent: ReadableSpan): ReadableSpan[] {
  return sdk.spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}

describe('an invocation, with the SDK registered', () => {
  it('a read: one execute_tool span under the caller’s, one CLIENT span per request under it', async () => {
    const { parent } = await underCaller(() => fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 }));
    const invocation = only('execute_tool');
    expect(invocation.name).toBe('execute_tool ticketing.get_ticket_info');
    expect(invocation.kind).toBe(SpanKind.INTERNAL);
    expect(invocation.parentSpanContext?.spanId).toBe(parent);
    expect(invocation.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'ticketing.get_ticket_info',
      'toolsteps.step.id': 'ticketing.get_ticket_info',
      'toolsteps.integration': 'ticketing',
      'toolsteps.tenant.id': 'default',
      'toolsteps.connection.id': 'tickets-main',
      'toolsteps.access': 'read',
      'toolsteps.outcome': 'ok',
      'toolsteps.retries': 0,
    });
    expect(invocation.status.code).not.toBe(SpanStatusCode.ERROR);
    const attempts = childrenOf(invocation);
    expect(attempts.map((span) => span.name)).toEqual([
      'GET /api/v2/tickets/{id}.json',
      'GET /api/v2/tickets/{id}/comments.json',
    ]);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.attributes).toMatchObject({
        'http.request.method': 'GET',
        'server.address': '127.0.0.1',
        'http.response.status_code': 200,
        'toolsteps.integration': 'ticketing',
      });
      expect(attempt.attributes['http.request.resend_count']).toBeUndefined();
    }
    // The provider got each attempt's own context.
    const sent = fx.requests('ticketing').slice(-2);
    expect(sent.map((entry) => entry.headers.traceparent)).toEqual(
      attempts.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
    );
  });

  it('a write: its access, and a POST span', async () => {
    await fx.invoke('ticketing.create_ticket', WRITTEN, { toolCallId: 'call_write_1' });
    const invocation = only('execute_tool');
    expect(invocation.attributes).toMatchObject({
      'toolsteps.access': 'write',
      'toolsteps.outcome': 'ok',
      'gen_ai.tool.call.id': 'call_write_1',
    });
    expect(childrenOf(invocation).map((span) => span.name)).toEqual(['POST /api/v2/tickets.json']);
  });

  it('a failure: status ERROR and error.type from the error’s code, the attempt’s from its status', async () => {
    await expect(fx.invoke('ticketing.get_ticket_info', { ticket_id: 424242 })).rejects.toMatchObject({
      code: 'not_found',
    });
    const invocation = only('execute_tool');
    expect(invocation.status).toEqual({ code: SpanStatusCode.ERROR, message: 'not_found' });
    expect(invocation.attributes).toMatchObject({
      'error.type': 'not_found',
      'toolsteps.error.code': 'not_found',
      'toolsteps.outcome': 'failed',
    });
    const [attempt] = childrenOf(invocation);
    expect(attempt?.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    expect(attempt?.status.code).toBe(SpanStatusCode.ERROR);
    // No message or stack of the provider's answer is recorded.
    expect(invocation.events.filter((event) => event.name === 'exception')).toEqual([]);
  });

  it('a retry: one CLIENT span per attempt with its resend count, a retry event each, trace ids in the log', async () => {
    fx.sandbox.faults.add({ target: 'ticketing', count: 2, action: { kind: 'status', status: 500 } });
    const result = await fx.invoke('ticketing.list_tickets', {});
    expect(result.meta.retries).toBe(2);
    const invocation = only('execute_tool');
    expect(invocation.attributes).toMatchObject({ 'toolsteps.retries': 2, 'toolsteps.attempts': 3 });
    const attempts = childrenOf(invocation);
    expect(attempts.map((span) => span.attributes['http.request.resend_count'])).toEqual([undefined, 1, 2]);
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual([500, 500, 200]);
    const retries = invocation.events.filter((event) => event.name === 'toolsteps.retry');
    expect(retries.map((event) => event.attributes?.['error.type'])).toEqual([
      'provider_error',
      'provider_error',
    ]);
    const retrying = fx.logger.lines.filter((line) => line.message === 'retrying').slice(-2);
    expect(retrying.map((line) => line.data?.trace_id)).toEqual([
      invocation.spanContext().traceId,
      invocation.spanContext().traceId,
    ]);
    expect(retrying[0]?.data?.span_id).toBe(invocation.spanContext().spanId);
  });

  it('a throttled answer: the Retry-After wait as a rate-limit event', async () => {
    fx.sandbox.faults.add({
      target: 'ticketing',
      count: 1,
      action: { kind: 'status', status: 429, headers: { 'retry-after': '2' } },
    });
    await fx.invoke('ticketing.search_tickets', { query: QUERY });
    const invocation = only('execute_tool');
    const waits = invocation.events.filter((event) => event.name === 'toolsteps.rate_limit.wait');
    expect(waits.map((event) => event.attributes)).toEqual([
      { 'toolsteps.rate_limit.wait_ms': 2000, 'toolsteps.rate_limit.reason': 'retry_after' },
    ]);
    const [first] = childrenOf(invocation);
    expect(first?.attributes['url.template']).toBe('/api/v2/search.json');
  });

  it('a token refresh: a child span of the invocation, its result', async () => {
    await fx.store.put({ ...fx.connection, expiresAt: fx.clock.now() + 1000 });
    await fx.invoke('ticketing.list_tickets', {});
    const invocation = only('execute_tool');
    const refresh = only('refresh_token');
    expect(refresh.parentSpanContext?.spanId).toBe(invocation.spanContext().spanId);
    expect(refresh.attributes).toMatchObject({
      'toolsteps.token.refresh': 'done',
      'toolsteps.connection.id': 'tickets-main',
    });
  });

  it('the metrics: invocations, durations, retries, waits, quota and refreshes', async () => {
    const collected = await sdk.metrics();
    const metrics = new Map(
      collected.scopeMetrics.flatMap((scope) =>
        scope.metrics.map((metric) => [metric.descriptor.name, metric]),
      ),
    );
    const points = (name: string) =>
      (metrics.get(name)?.dataPoints ?? []) as { attributes: Record<string, unknown>; value: unknown }[];
    const failed = points('toolsteps.invocations').find(
      (point) => point.attributes['toolsteps.outcome'] === 'failed',
    );
    expect(failed?.attributes).toEqual({
      'toolsteps.step.id': 'ticketing.get_ticket_info',
      'toolsteps.integration': 'ticketing',
      'toolsteps.outcome': 'failed',
      'toolsteps.error.code': 'not_found',
    });
    expect(failed?.value).toBe(1);
    expect(points('toolsteps.invocation.duration').length).toBeGreaterThan(0);
    expect(
      points('toolsteps.provider.request.duration').map((point) => point.attributes['url.template']),
    ).toContain('/api/v2/tickets/{id}.json');
    const retries = points('toolsteps.provider.retries').reduce((sum, point) => sum + Number(point.value), 0);
    expect(retries).toBe(3);
    expect(points('toolsteps.rate_limit.waits')[0]?.attributes['toolsteps.rate_limit.reason']).toBe(
      'retry_after',
    );
    const quota = points('toolsteps.quota.remaining')[0];
    expect(quota?.attributes).toEqual({
      'toolsteps.integration': 'ticketing',
      'toolsteps.connection.id': 'tickets-main',
    });
    expect(typeof quota?.value).toBe('number');
    expect(points('toolsteps.token.refreshes')[0]?.attributes['toolsteps.token.refresh']).toBe('done');
  });

  it('leaves nothing private in any span, event or metric exported in this file', async () => {
    exported.push(...sdk.spans());
    const scan = scanRun({
      spans: exported,
      metrics: await sdk.metrics(),
      sandbox: fx.sandbox,
      connections: [...(await fx.store.list()), fx.connection],
      values: [...Object.values(WRITTEN), QUERY, 'status:open'],
    });
    expect(scan.items).toBeGreaterThan(20);
    expect(scan.values).toEqual(
      expect.arrayContaining([fx.connection.secrets.accessToken, 'ada@acme.example']),
    );
    expect(scan.findings).toEqual([]);
    // The scan finds what it looks for.
    expect(privateDataFindings([{ where: 'probe', text: `x${WRITTEN.subject}x` }], scan.values)).toHaveLength(
      1,
    );
  });
});

describe('a paid lookup, with the SDK registered', () => {
  it('counts the credits it spent under its tenant', async () => {
    const paid = await contactDataFixture({ runtime: { tenant: parseTenantId('acme-co') } });
    try {
      const result = await paid.invoke('contact_data.find_company', { domain: 'contoso.example' });
      const charged = result.meta.credits?.charged;
      expect(charged).toBeGreaterThan(0);
      const invocation = sdk.spans().find((span) => span.name === 'execute_tool contact_data.find_company');
      expect(invocation?.attributes).toMatchObject({
        'toolsteps.credits': charged,
        'toolsteps.tenant.id': 'acme-co',
      });
      const collected = await sdk.metrics();
      const spent = collected.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === 'toolsteps.credits.spent');
      expect(spent?.dataPoints.map((point) => [point.attributes, point.value])).toEqual([
        [
          {
            'toolsteps.step.id': 'contact_data.find_company',
            'toolsteps.integration': 'contact_data',
            'toolsteps.tenant.id': 'acme-co',
          },
          charged,
        ],
      ]);
      const scan = scanRun({ spans: sdk.spans(), sandbox: paid.sandbox, connections: [paid.connection] });
      expect(scan.findings).toEqual([]);
    } finally {
      await paid.close();
    }
  });
});
