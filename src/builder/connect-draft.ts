import { randomBytes } from 'node:crypto';
import { parseConnectionFields, resolveBaseUrl } from '../connection/connection-fields.js';
import { InputError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import { connectionIdPattern } from '../model/connection-id.js';
import type { Integration } from '../model/define-integration.js';
import { checkConnection } from '../store/check-connection.js';
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
 * The connection fields a person fills in on the page: the integration's
 * declared fields less those the server presets and the OAuth client id.
 * Never `baseUrl`: where the server sends the code, the client secret and
 * the PKCE verifier is the server's to say, not the page's.
 */
export function personFields(integration: Integration, setting: ConnectSetting | undefined): string[] {
  const preset = new Set([...Object.keys(setting?.fields ?? {}), 'clientId']);
  return Object.keys(integration.connection.fields.shape).filter((key) => !preset.has(key));
}

/**
 * The connection's public fields: only the integration's declared fields
 * come from the page, and the server's presets and OAuth client override
 * them. Anything else, `baseUrl` above all, is refused before a sign-in
 * starts: a page that named the host would have the server post its client
 * secret and the PKCE verifier there.
 */
export function connectDraft(
  integration: Integration,
  setting: ConnectSetting,
  request: { id?: string | undefined; label?: string | undefined; fields: Record<string, string> },
): ConnectDraft {
  const allowed = new Set(Object.keys(integration.connection.fields.shape));
  const foreign = Object.keys(request.fields).filter((key) => !allowed.has(key));
  if (foreign.length > 0) {
    throw new InputError(
      `Not a field a person sets for ${integration.title}: ${foreign.map((key) => key.slice(0, 40)).join(', ')}.`,
      foreign.map((key) => ({
        path: `fields.${key.slice(0, 40)}`,
        message: 'set by the server, not the page',
      })),
    );
  }
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
    refreshExpiresAt?: number | undefined;
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
    ...definedOnly({
      label: draft.label,
      expiresAt: extra.expiresAt || undefined,
      refreshExpiresAt: extra.refreshExpiresAt,
      scopes: extra.scopes,
    }),
    createdAt: extra.createdAt ?? now,
    updatedAt: now,
  });
}
