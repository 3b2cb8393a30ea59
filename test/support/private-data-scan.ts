import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { PERSON_RECORDS } from '../../sandbox/anz-data/anz-data-records.js';
import type { Sandbox } from '../../sandbox/index.js';
import {
  ANZ_DATA_SANDBOX_KEY,
  CONTACT_DATA_SANDBOX_KEY,
  DEPLOYMENTS_SANDBOX_CLIENTS,
  GOVERNANCE_SANDBOX,
  TICKETING_SANDBOX_CLIENTS,
} from '../../sandbox/index.js';
import type { Connection } from '../../src/model/connection.js';

/**
 * The private-data scan of issue 39: every span, event and metric a run
 * exported, as text, searched for every secret and personal value the
 * sandbox seeds (and any the test adds: the text it wrote, the queries it
 * sent). Works on the SDK's in-memory exports and on decoded OTLP payloads
 * alike (`jsonItems`).
 */

/** One exported thing as text, and where it came from, for the finding's message. */
export interface ExportedItem {
  where: string;
  text: string;
}

/** Everything of a span an exporter sends that we set: name, attributes, events, links, status. */
export function spanItems(spans: readonly ReadableSpan[]): ExportedItem[] {
  return spans.map((span) => ({
    where: `span "${span.name}"`,
    text: JSON.stringify({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links.map((link) => link.attributes ?? {}),
      status: span.status,
    }),
  }));
}

/** Every metric's name, description and data points' attributes and values. */
export function metricItems(resourceMetrics: ResourceMetrics): ExportedItem[] {
  return resourceMetrics.scopeMetrics.flatMap((scope) =>
    scope.metrics.map((metric) => ({
      where: `metric "${metric.descriptor.name}"`,
      text: JSON.stringify({
        descriptor: metric.descriptor,
        points: (metric.dataPoints as { attributes: unknown; value: unknown }[]).map((point) => ({
          attributes: point.attributes,
          value: point.value,
        })),
      }),
    })),
  );
}

/** A decoded payload (an OTLP request's JSON, say) as one item. */
export function jsonItems(where: string, value: unknown): ExportedItem[] {
  return [{ where, text: JSON.stringify(value) }];
}

/** The findings: which item holds which private value (whole, URL-encoded, or a secret's first 8 characters). */
export function privateDataFindings(items: readonly ExportedItem[], values: Iterable<string>): string[] {
  const needles = [...new Set(values)].filter((value) => value.length >= 4);
  const findings: string[] = [];
  for (const item of items) {
    const haystack = item.text.toLowerCase();
    for (const value of needles) {
      const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
      if (forms.some((form) => haystack.includes(form.toLowerCase()))) {
        findings.push(`${item.where} holds ${JSON.stringify(value)}`);
      }
    }
  }
  return findings;
}

/** Every secret a connection holds (tokens, keys, client secrets): whole, and the first 8 characters of long ones. */
export function connectionSecrets(connections: Iterable<Connection>): string[] {
  return [...connections].flatMap((connection) =>
    Object.values(connection.secrets)
      .filter((secret): secret is string => typeof secret === 'string' && secret.length > 0)
      .flatMap((secret) => (secret.length >= 16 ? [secret, secret.slice(0, 8)] : [secret])),
  );
}

/**
 * What the sandbox seeds that must never leave in telemetry: its API keys
 * and client secrets; the ANZ directory's people (slugs, names, emails,
 * phones); governance's users' emails; and, given a running sandbox, the
 * ticketing account's people (names, emails, phones) and tickets (subjects,
 * descriptions, comment bodies).
 */
export function sandboxPrivateValues(sandbox?: Sandbox, subdomains: readonly string[] = ['acme']): string[] {
  const values = [
    ANZ_DATA_SANDBOX_KEY,
    CONTACT_DATA_SANDBOX_KEY,
    GOVERNANCE_SANDBOX.adminKey,
    GOVERNANCE_SANDBOX.memberKey,
    ...Object.values(GOVERNANCE_SANDBOX.users).map((user) => user.email),
    ...[...TICKETING_SANDBOX_CLIENTS, ...DEPLOYMENTS_SANDBOX_CLIENTS].flatMap((client) =>
      'secret' in client && typeof client.secret === 'string' ? [client.secret] : [],
    ),
    ...PERSON_RECORDS.flatMap((person) => [
      person.slug,
      `${person.first_name} ${person.last_name}`,
      ...person.emails.map((email) => email.address),
      ...person.phones.map((phone) => phone.number),
    ]),
  ];
  if (sandbox) {
    for (const subdomain of subdomains) {
      const account = sandbox.ticketing.account(subdomain);
      for (const user of account.users.values()) {
        values.push(user.name, user.email, ...(user.phone ? [user.phone] : []));
      }
      for (const ticket of account.tickets.values()) {
        values.push(ticket.subject, ticket.description, ...ticket.comments.map((comment) => comment.body));
      }
    }
  }
  return values;
}

/** What one test file exported and what it must not have: the sandbox's values, its connections' secrets, and its own. */
export interface PrivateDataRun {
  spans: readonly ReadableSpan[];
  metrics?: ResourceMetrics | undefined;
  sandbox?: Sandbox | undefined;
  connections?: Iterable<Connection> | undefined;
  /** The test's own private values: the text it wrote, the queries it sent. */
  values?: readonly string[] | undefined;
}

/** The findings of one run's scan: empty when nothing private left. */
export function scanRun(run: PrivateDataRun): { findings: string[]; items: number; values: string[] } {
  const values = [
    ...sandboxPrivateValues(run.sandbox),
    ...connectionSecrets(run.connections ?? []),
    ...(run.values ?? []),
  ];
  const items = [...spanItems(run.spans), ...(run.metrics ? metricItems(run.metrics) : [])];
  return { findings: privateDataFindings(items, values), items: items.length, values };
}
