import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otelApi } from '../../src/telemetry/index.js';
import {
  type BuilderWorld,
  connectTicketing,
  openBuilderWorld,
  storesOf,
} from '../builder/builder-fixture.js';
import { serveFlat } from '../mcp/mcp-http-fixture.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';
import * as scan from '../support/private-data-scan.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/**
 * The servers' own spans with the real SDK registered (in-memory
 * exporters): a SERVER span per builder API request, by route template and
 * status, counted in the builder metrics; a SERVER span per MCP `tools/call`,
 * under the caller's span when the request's `_meta` names it.
 */

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TOKEN = 'mcp-test-token-0123456789abcdef';

let sdk: TestOtelSdk;
/** Every span each test saw, and the private values of each world, for the scan at the end. */
const seen: ReadableSpan[] = [];
const privateValues: string[] = [];
function reset() {
  seen.push(...sdk.spans());
  sdk.reset();
}
beforeAll(async () => {
  sdk = startTestOtelSdk();
  await otelApi();
});
afterAll(() => sdk.shutdown());

const server = (spans: ReadableSpan[]) => spans.filter((span) => span.kind === 1);

/** The data points of one metric, as `{attributes, value}`. */
async function points(name: string) {
  const collected = await sdk.metrics();
  return collected.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) =>
      metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
    );
}

describe('builder API requests', () => {
  let world: BuilderWorld;
  beforeAll(async () => {
    world = await openBuilderWorld();
  });
  afterAll(async () => {
    const stored = await storesOf(world).connections.list();
    privateValues.push(...scan.sandboxPrivateValues(world.sandbox), ...scan.connectionSecrets(stored));
    await world?.close();
  });

  it("each is a SERVER span named by its route template, with the status, under the caller's traceparent", async () => {
    reset();
    const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;
    expect(
      (await world.api('/v1/steps/ticketing.get_ticket_info', { headers: { traceparent } })).status,
    ).toBe(200);
    expect((await world.api('/v1/steps/nope.nothing')).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const spans = server(sdk.spans());
    const found = spans.find((span) => span.attributes['http.response.status_code'] === 200);
    expect(found?.name).toBe('GET /v1/steps/:stepId');
    expect(found?.attributes).toMatchObject({
      'http.route': '/v1/steps/:stepId',
      'http.request.method': 'GET',
    });
    expect(found?.spanContext().traceId).toBe(CALLER_TRACE);
    expect(found?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    const missing = spans.find((span) => span.attributes['http.response.status_code'] === 400);
    expect(missing?.attributes['http.route']).toBe('/v1/steps/:stepId');
    // A refusal is the caller's fault, not the server's: no error status.
    expect(missing?.status.code).not.toBe(2);
    // No value of the path is on a span: the route template only.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('nope.nothing');

    const counted = await points('toolsteps.builder.requests');
    expect(counted).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            'http.request.method': 'GET',
            'http.route': '/v1/steps/:stepId',
            'http.response.status_code': 200,
          },
          value: 1,
        },
        {
          attributes: {
            'http.request.method': 'GET',
            'http.route': '/v1/steps/:stepId',
            'http.response.status_code': 400,
          },
          value: 1,
        },
      ]),
    );
  });

  it("a step tested through the API runs its invocation under the request's span", async () => {
    await connectTicketing(world, 'desk');
    reset();
    const answer = await world.api('/v1/steps/ticketing.get_ticket_info/test', {
      body: { connection: 'desk', input: { ticket_id: 1 } },
    });
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const request = server(sdk.spans()).find((span) => span.name === 'POST /v1/steps/:stepId/test');
    const invocation = sdk
      .spans()
      .find((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(request?.attributes['http.response.status_code']).toBe(200);
    expect(invocation?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
  });
});

describe('MCP tools/call', () => {
  let fixture: TicketingFixture;
  let mcp: Awaited<ReturnType<typeof serveFlat>>;
  let client: Client;
  beforeAll(async () => {
    fixture = await ticketingFixture();
    mcp = await serveFlat(fixture, { token: TOKEN });
    client = new Client({ name: 'traced-agent', version: '1.0.0' });
    const headers = { authorization: `Bearer ${TOKEN}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers } }));
  });
  afterAll(async () => {
    privateValues.push(
      ...scan.sandboxPrivateValues(fixture.sandbox),
      ...scan.connectionSecrets([fixture.connection]),
    );
    await client?.close();
    await mcp?.close();
    await fixture?.close();
  });

  it("is a SERVER span under the caller's span named in _meta.traceparent, the invocation under it", async () => {
    reset();
    const result = await client.callTool({
      name: 'ticketing__get_ticket_info',
      arguments: { ticket_id: 1 },
      _meta: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    });
    expect(result.isError).toBeFalsy();
    const call = server(sdk.spans()).find((span) => span.name === 'tools/call ticketing__get_ticket_info');
    expect(call?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'ticketing__get_ticket_info',
    });
    expect(call?.spanContext().traceId).toBe(CALLER_TRACE);
    expect(call?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    const below = sdk.spans().filter((span) => span.parentSpanContext?.spanId === call?.spanContext().spanId);
    for (const span of below) expect(span.spanContext().traceId).toBe(CALLER_TRACE);
  });

  it('without _meta starts a trace of its own, and a failed tool marks it failed', async () => {
    reset();
    const result = await client.callTool({
      name: 'ticketing__get_ticket_info',
      arguments: { ticket_id: 'x' },
    });
    expect(result.isError).toBe(true);
    const call = server(sdk.spans()).find((span) => span.name === 'tools/call ticketing__get_ticket_info');
    expect(call?.parentSpanContext).toBeUndefined();
    expect(call?.status.code).toBe(2);
    expect(call?.attributes['error.type']).toBe('tool_error');
  });
});

describe('what the servers exported', () => {
  it('holds no secret and no personal value the sandboxes seeded', async () => {
    reset();
    const items = [...scan.spanItems(seen), ...scan.metricItems(await sdk.metrics())];
    expect(seen.length).toBeGreaterThan(0);
    expect(privateValues.length).toBeGreaterThan(0);
    expect(scan.privateDataFindings(items, privateValues)).toEqual([]);
  });
});
