import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenTelemetry Collector: a loopback `node:http` server
 * taking OTLP/HTTP in JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) at
 * `/v1/traces`, `/v1/metrics` and `/v1/logs`, as the real exporters send it,
 * and keeping what it decoded. Protobuf is refused with 415: tests choose
 * JSON so that what crossed the wire can be read and scanned as it is.
 */

/** The span kinds in OTLP's numbering (SPAN_KIND_INTERNAL = 1 ...). */
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
export type ReceivedSpanKind = (typeof KINDS)[number];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: ReceivedSpanKind;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  /** The resource of the process that sent it (`service.name`...). */
  resource: Record<string, unknown>;
  /** The instrumentation scope's name. */
  scope: string;
}

export interface ReceivedMetricPoint {
  name: string;
  unit: string;
  type: 'sum' | 'gauge' | 'histogram';
  attributes: Record<string, unknown>;
  /** A sum's or gauge's value. */
  value: number | undefined;
  /** A histogram's count and sum. */
  count: number | undefined;
  sum: number | undefined;
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}

function plainValue(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.bytesValue;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, plainValue(entry.value)]));
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: OtlpKeyValue[];
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
  links?: { traceId: string; spanId: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}

interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

interface OtlpDataPoint {
  attributes?: OtlpKeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
}
interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints?: OtlpDataPoint[] };
  gauge?: { dataPoints?: OtlpDataPoint[] };
  histogram?: { dataPoints?: OtlpDataPoint[] };
}
interface OtlpMetrics {
  resourceMetrics?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeMetrics?: { metrics?: OtlpMetric[] }[];
  }[];
}

/** OTLP/JSON writes ids in hex; an empty parent id means none. */
const idOf = (id: string | undefined) => (id ? id.toLowerCase() : undefined);

function spansOf(body: OtlpTraces): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: idOf(span.traceId) as string,
        spanId: idOf(span.spanId) as string,
        parentSpanId: idOf(span.parentSpanId),
        name: span.name,
        kind: KINDS[span.kind ?? 0] ?? 'unspecified',
        attributes: attributesOf(span.attributes),
        events: (span.events ?? []).map((event) => ({
          name: event.name,
          attributes: attributesOf(event.attributes),
        })),
        links: (span.links ?? []).map((link) => ({
          traceId: idOf(link.traceId) as string,
          spanId: idOf(link.spanId) as string,
          attributes: attributesOf(link.attributes),
        })),
        status: {
          code: span.status?.code ?? 0,
          ...(span.status?.message ? { message: span.status.message } : {}),
        },
        resource,
        scope: scopeSpans.scope?.name ?? '',
      })),
    );
  });
}

function pointsOf(body: OtlpMetrics): ReceivedMetricPoint[] {
  return (body.resourceMetrics ?? []).flatMap((resourceMetrics) => {
    const resource = attributesOf(resourceMetrics.resource?.attributes);
    return (resourceMetrics.scopeMetrics ?? []).flatMap((scope) =>
      (scope.metrics ?? []).flatMap((metric) => {
        const type = metric.histogram ? 'histogram' : metric.gauge ? 'gauge' : 'sum';
        const points = (metric.histogram ?? metric.gauge ?? metric.sum)?.dataPoints ?? [];
        return points.map((point) => ({
          name: metric.name,
          unit: metric.unit ?? '',
          type,
          attributes: attributesOf(point.attributes),
          value:
            point.asInt !== undefined
              ? Number(point.asInt)
              : point.asDouble !== undefined
                ? point.asDouble
                : undefined,
          count: point.count === undefined ? undefined : Number(point.count),
          sum: point.sum,
          resource,
        }));
      }),
    );
  });
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The collector a test starts: point `OTEL_EXPORTER_OTLP_ENDPOINT` at `url`. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly points: ReceivedMetricPoint[] = [];
  /** Every request body as it arrived (JSON text), for scans of everything exported. */
  readonly bodies: string[] = [];
  /** Requests refused (not JSON, not a path of OTLP/HTTP), so a test can say why nothing arrived. */
  readonly refused: string[] = [];

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`, what `OTEL_EXPORTER_OTLP_ENDPOINT` takes. */
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((request, response) => {
      void receiver?.receive(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  private async receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await bodyOf(request);
    const json = (request.headers['content-type'] ?? '').startsWith('application/json');
    const path = request.url ?? '';
    if (request.method !== 'POST' || !json || !/^\/v1\/(traces|metrics|logs)$/.test(path)) {
      this.refused.push(`${request.method} ${path} ${request.headers['content-type'] ?? ''}`);
      response.writeHead(json ? 404 : 415).end();
      return;
    }
    this.bodies.push(text);
    const body = JSON.parse(text) as OtlpTraces & OtlpMetrics;
    if (path === '/v1/traces') this.spans.push(...spansOf(body));
    if (path === '/v1/metrics') this.points.push(...pointsOf(body));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }

  /** Polls until `check` holds of what arrived, or fails after `timeoutMs` naming `what`. */
  async until(check: (receiver: OtlpReceiver) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const started = Date.now();
    while (!check(this)) {
      if (Date.now() - started > timeoutMs) {
        const names = [...new Set(this.spans.map((span) => span.name))].join(', ');
        throw new Error(`Timed out waiting for ${what}; spans so far: ${names || 'none'}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /**
   * The latest data point of one metric per process (its resource) and
   * attribute set: cumulative sums grow, so the last is the total.
   */
  latest(name: string): ReceivedMetricPoint[] {
    const byAttributes = new Map<string, ReceivedMetricPoint>();
    for (const point of this.points) {
      if (point.name === name) byAttributes.set(JSON.stringify([point.resource, point.attributes]), point);
    }
    return [...byAttributes.values()];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
