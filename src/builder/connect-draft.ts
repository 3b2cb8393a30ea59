import { randomBytes } from 'node:crypto';
import type { Connection } from '../connection/connection.js';
import { parseConnectionFields, resolveBaseUrl } from '../connection/connection-fields.js';
import { connectionIdPattern } from '../connection/connection-id.js';
import { InputError } from '../errors/index.js';
import type { Integration } from '../step/define-integration.js';
import { checkConnection } from '../store/connections/check-connection.js';
import { definedOnly } from '../values/defined-only.js';
import type { ConnectSetting } from './builder-options.js';

/** What a new connection will be, checked before any sign-in starts, so a bad field never costs a grant. */
export interface ConnectDraft {
  id: string;
  label: string | undefined;
  fields: Record<string, string>;
  baseUrl: string;
}

/** The id a person gave, or one made from the integration. */
function connectionId(integration: Integration, id: string | undefined): string {
  const chosen = id ?? `${integration.id.replaceAll('_', '-')}-${randomBytes(4).toString('hex')}`;
  if (!connectionIdPattern.test(chosen)) {
    throw new InputError(`Invalid connection id "${chosen.slice(0, 70)}".`, [
      { path: 'id', message: 'letters, digits, _ and -, up to 64 characters' },
    ]);
  }
  return chosen;
}

/**
 * The connection's public fields: the server's presets win over what the
 * page sent (a page cannot point a sandbox connection at another host),
 * and the OAuth client is the server's.
 */
export function connectDraft(
  integration: Integration,
  setting: ConnectSetting,
  request: { id?: string | undefined; label?: string | undefined; fields: Record<string, string> },
): ConnectDraft {
  const fields = parseConnectionFields(integration, {
    ...request.fields,
    ...setting.fields,
    ...definedOnly({ clientId: setting.clientId }),
  });
  return {
    id: connectionId(integration, request.id),
    label: request.label,
    fields,
    baseUrl: resolveBaseUrl(integration, { fields }),
  };
}

/** The connection to store once the secrets are known, checked like any other. */
export function draftConnection(
  integration: Integration,
  draft: ConnectDraft,
  secrets: Connection['secrets'],
  now: number,
  extra: {
    expiresAt?: number | undefined;
    scopes?: string[] | undefined;
    createdAt?: number | undefined;
  } = {},
): Connection {
  return checkConnection({
    id: draft.id,
    integration: integration.id,
    kind: integration.connection.kind,
    fields: draft.fields,
    secrets,
    ...definedOnly({ label: draft.label, expiresAt: extra.expiresAt || undefined, scopes: extra.scopes }),
    createdAt: extra.createdAt ?? now,
    updatedAt: now,
  });
}
