import { createHash } from 'node:crypto';
import type { Span } from '@opentelemetry/api';

/**
 * The one list of what toolsteps may put on a span, an event or a metric:
 * names from the semantic conventions where they exist, `toolsteps.*` for
 * ours. A key not listed here is dropped, so nothing reaches an exporter
 * because someone passed an object through. Values are counts, codes,
 * decisions, templates and ids an operator needs (tenant, connection,
 * step): never a secret, a header value, an input or output value, a query
 * string, an email or text a person wrote (docs/observability.md).
 */
export const ATTRIBUTE_KEYS = [
  // GenAI tool execution (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#execute-tool-span)
  'gen_ai.operation.name',
  'gen_ai.tool.name',
  'gen_ai.tool.call.id',
  'gen_ai.tool.type',
  'error.type',
  // HTTP client and server (https://opentelemetry.io/docs/specs/semconv/http/http-spans/)
  'http.request.method',
  'http.response.status_code',
  'http.request.resend_count',
  'http.route',
  'url.template',
  'url.scheme',
  'server.address',
  'server.port',
  // Messaging, for the event queue (https://opentelemetry.io/docs/specs/semconv/messaging/)
  'messaging.system',
  'messaging.operation.name',
  'messaging.operation.type',
  'messaging.destination.name',
  'messaging.message.id',
  // MCP and JSON-RPC
  'mcp.method.name',
  'rpc.system',
  'rpc.method',
  'jsonrpc.request.id',
  // toolsteps' own
  'toolsteps.step.id',
  'toolsteps.step.major',
  'toolsteps.integration',
  'toolsteps.tenant.id',
  'toolsteps.connection.id',
  'toolsteps.access',
  'toolsteps.outcome',
  'toolsteps.error.code',
  'toolsteps.attempts',
  'toolsteps.retries',
  'toolsteps.credits',
  'toolsteps.replay.decision',
  'toolsteps.surface',
  'toolsteps.rate_limit.wait_ms',
  'toolsteps.rate_limit.remaining',
  'toolsteps.rate_limit.reason',
  'toolsteps.quota.remaining',
  'toolsteps.token.refresh',
  'toolsteps.trigger.id',
  'toolsteps.subscription.id',
  'toolsteps.webhook.verification',
  'toolsteps.webhook.decision',
  'toolsteps.webhook.reason',
  'toolsteps.handoff',
  'toolsteps.queue.name',
  'toolsteps.person.hash',
] as const;

/** A key that may be an attribute. */
export type AttributeKey = (typeof ATTRIBUTE_KEYS)[number];
/** What an attribute may hold: OpenTelemetry's scalars, no arrays (they are where lists of values would creep in). */
export type AttributeValue = string | number | boolean;
/** Attributes as callers state them: allowed keys only, undefined values left out. */
export type SafeAttributes = { readonly [Key in AttributeKey]?: AttributeValue | undefined };

/** Names of span events, listed like the keys. */
export const EVENT_NAMES = [
  'toolsteps.rate_limit.wait',
  'toolsteps.quota.wait',
  'toolsteps.token.refresh',
  'toolsteps.retry',
  'toolsteps.redirect',
] as const;
/** A name a span event may have. */
export type EventName = (typeof EVENT_NAMES)[number];

const ALLOWED = new Set<string>(ATTRIBUTE_KEYS);
/** Longest string value kept: ids, codes and templates fit; a pasted text would not. */
const MAX_VALUE_LENGTH = 200;

/** The allowed, defined attributes of `attributes`, strings cut to a length ids and templates fit in. */
export function safeAttributes(attributes: SafeAttributes): Record<string, AttributeValue> {
  const kept: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || !ALLOWED.has(key)) continue;
    kept[key] = typeof value === 'string' ? value.slice(0, MAX_VALUE_LENGTH) : value;
  }
  return kept;
}

/** Sets allowed attributes on a span. */
export function setSafeAttributes(span: Span, attributes: SafeAttributes): void {
  span.setAttributes(safeAttributes(attributes));
}

/** Adds a listed event with allowed attributes to a span. */
export function addSafeEvent(span: Span, name: EventName, attributes: SafeAttributes = {}): void {
  span.addEvent(name, safeAttributes(attributes));
}

/**
 * `{id}` replaces a path segment that may name a record or a person: digits,
 * hex, uuids, emails, escaped text, and ids mixing letters
 * and digits (`dpl_8f2k1x`); a short version segment (`v2`) stays.
 */
const VARIABLE_SEGMENT =
  /^(?:\d+|[0-9a-f]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[^/]*@[^/]*|[^/]*%[0-9A-Fa-f]{2}[^/]*|(?=[^/]*\d)[A-Za-z0-9_-]{8,})$/;

/**
 * The URL template of a provider path, for `url.template`: the integration's
 * own template when one of its declared paths matches (`/api/v2/tickets/{id}.json`),
 * otherwise the path with its query cut off and every segment that may be an
 * id replaced by `{id}` (extensions kept: `/api/v2/users/{id}.json`).
 */
export function urlTemplate(path: string, templates: readonly string[] = []): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  for (const template of templates) {
    if (templateMatches(template, bare)) return template.split('?', 1)[0] ?? template;
  }
  return bare
    .split('/')
    .map((segment) => {
      const dot = segment.lastIndexOf('.');
      const [stem, extension] = dot > 0 ? [segment.slice(0, dot), segment.slice(dot)] : [segment, ''];
      if (VARIABLE_SEGMENT.test(segment)) return '{id}';
      return VARIABLE_SEGMENT.test(stem) ? `{id}${extension}` : segment;
    })
    .join('/');
}

const templateMatchers = new Map<string, RegExp>();

function templateMatches(template: string, path: string): boolean {
  let matcher = templateMatchers.get(template);
  if (!matcher) {
    const pattern = (template.split('?', 1)[0] ?? '')
      .split(/\{[^}]+\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    matcher = new RegExp(`^${pattern}$`);
    if (templateMatchers.size >= 1000) templateMatchers.clear();
    templateMatchers.set(template, matcher);
  }
  return matcher.test(path);
}

/**
 * An id that names a person (a user id, an email), as a short one-way digest
 * an operator can compare across spans without learning who it is. Tenant
 * and connection ids are kept as they are: operators need them, and they
 * name an organization's setup, not a person.
 */
export function hashedPersonId(id: string | number): string {
  return createHash('sha256').update(`toolsteps.person:${id}`).digest('hex').slice(0, 16);
}
