import { validateBaseUrl } from '../base-url.js';
import { type FieldIssue, InputError } from '../errors.js';
import type { Integration } from '../integration.js';
import type { Connection } from './connection.js';

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

/** The URL every request of the connection goes under: its `baseUrl` override, or the provider host. */
export function resolveBaseUrl(integration: Integration, connection: Pick<Connection, 'fields'>): string {
  const fields = parseConnectionFields(integration, connection.fields);
  return fields.baseUrl ?? integration.baseUrl(fields as never);
}
