import { type FieldIssue, InputError } from '../errors/index.js';
import { validateBaseUrl } from '../model/base-url.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';

/** Validates a connection's public fields against its integration's schema. */
export function parseConnectionFields(
  integration: Integration,
  fields: Record<string, string>,
): Record<string, string> {
  const { baseUrl, ...rest } = fields;
  const parsed = integration.connection.fields.safeParse(rest);
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.') || '(fields)',
      message: issue.message,
    }));
    throw new InputError(
      `Invalid ${integration.title} connection settings: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
      issues,
    );
  }
  const result = parsed.data as Record<string, string>;
  if (baseUrl !== undefined) result.baseUrl = validateBaseUrl(baseUrl);
  return result;
}

/**
 * Base URLs already resolved, by integration and fields: every invocation
 * needs one, and checking the fields and the URL again each time cost more
 * than the rest of binding a connection. Only what resolved is kept.
 */
const resolvedBaseUrls = new WeakMap<Integration, Map<string, string>>();
const RESOLVED_LIMIT = 1000;

/** The URL every request of the connection goes under: its `baseUrl` override, or the provider host. */
export function resolveBaseUrl(integration: Integration, connection: Pick<Connection, 'fields'>): string {
  let byFields = resolvedBaseUrls.get(integration);
  if (!byFields) {
    byFields = new Map();
    resolvedBaseUrls.set(integration, byFields);
  }
  const key = JSON.stringify(connection.fields);
  const known = byFields.get(key);
  if (known !== undefined) return known;
  const fields = parseConnectionFields(integration, connection.fields);
  const baseUrl = fields.baseUrl ?? integration.baseUrl(fields as never);
  // A long-lived process sees connections come and go; forget them all rather than grow without bound.
  if (byFields.size >= RESOLVED_LIMIT) byFields.clear();
  byFields.set(key, baseUrl);
  return baseUrl;
}
