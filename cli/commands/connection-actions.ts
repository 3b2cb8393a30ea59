import type { Command } from 'commander';
import { parseConnectionFields } from '../../src/connection/connection-fields.js';
import { assessHealth } from '../../src/connection/connection-health.js';
import { connectionState } from '../../src/connection/connection-state.js';
import { InputError } from '../../src/errors/input-error.js';
import type { ConnectionSecrets } from '../../src/model/connection.js';
import type { Integration } from '../../src/model/define-integration.js';
import { checkConnection } from '../../src/store/check-connection.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { cliContext, cliRegistry } from '../cli-context.js';
import { cliStores } from '../cli-stores.js';
import { keepAliveWindowMs } from '../keep-alive-window.js';
import { listedConnections } from '../listed-connections.js';
import { connectionIdOption, integerOption } from '../option-values.js';
import { printJson } from '../output.js';
import { formatTable } from '../table.js';
import { refuseOverwrite } from './existing-connection.js';
import { readStdin, secretFromEnv } from './secret-sources.js';

export interface AddOptions {
  id: string;
  label?: string;
  subdomain?: string;
  baseUrl?: string;
  teamId?: string;
  region?: string;
  projectId?: string;
  clientId?: string;
  field?: string[];
  accessTokenEnv?: string;
  refreshTokenEnv?: string;
  apiKeyEnv?: string;
  clientSecretEnv?: string;
  secretStdin?: boolean;
  expiresIn?: string;
  force?: boolean;
}

/** The longest token lifetime `--expires-in` accepts: ten years, in seconds. */
export const MAX_EXPIRES_IN_S = 10 * 365 * 24 * 3600;

export async function addConnection(
  integrationId: string,
  options: AddOptions,
  command: Command,
): Promise<void> {
  const { registry, store, runtime } = await cliContext();
  const integration = registry.integration(integrationId);
  if (!integration) {
    throw new InputError(`Unknown integration "${integrationId}".`, [
      { path: 'integration', message: 'unknown' },
    ]);
  }
  connectionIdOption(options.id);
  const expiresIn =
    options.expiresIn === undefined
      ? undefined
      : integerOption(options.expiresIn, '--expires-in', { min: 1, max: MAX_EXPIRES_IN_S });
  const fields = parseConnectionFields(integration, rawFieldsOf(options));
  const keptCreatedAt = await refuseOverwrite(store, options.id, options.force);
  const secrets = await secretsOf(integration, options);
  const now = Date.now();
  const draft = checkConnection({
    id: options.id,
    integration: integration.id,
    ...definedOnly({
      label: options.label || undefined,
      expiresAt: expiresIn === undefined ? undefined : now + expiresIn * 1000,
    }),
    kind: integration.connection.kind,
    fields,
    secrets,
    createdAt: now,
    updatedAt: now,
  });
  const connection = { ...draft, createdAt: keptCreatedAt ?? now };
  const entry = { action: 'connection.store' as const, target: connection.id, integration: integration.id };
  await runtime.recordWrite(entry, () => store.put(connection));
  if (command.optsWithGlobals().json)
    printJson({ id: connection.id, integration: integration.id, saved: true });
  else process.stdout.write(`Saved connection "${connection.id}" (${integration.title}).\n`);
}

/** The public fields named by their own flags, then every `--field key=value`. */
export function rawFieldsOf(options: AddOptions): Record<string, string> {
  const raw: Record<string, string> = {};
  const named = ['subdomain', 'teamId', 'region', 'projectId', 'clientId', 'baseUrl'] as const;
  for (const field of named) {
    const value = options[field];
    if (typeof value === 'string') raw[field] = value;
  }
  for (const pair of options.field ?? []) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new InputError(`--field expects key=value, got "${pair}".`, [
        { path: 'field', message: 'key=value' },
      ]);
    raw[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return raw;
}

/** Secrets from the named environment variables and stdin; every secret the integration requires, or an InputError. */
export async function secretsOf(integration: Integration, options: AddOptions): Promise<ConnectionSecrets> {
  const secrets: ConnectionSecrets = {};
  const accessToken = secretFromEnv(options.accessTokenEnv, 'access token');
  const refreshToken = secretFromEnv(options.refreshTokenEnv, 'refresh token');
  const apiKey = secretFromEnv(options.apiKeyEnv, 'API key');
  const clientSecret = secretFromEnv(options.clientSecretEnv, 'client secret');
  if (accessToken) secrets.accessToken = accessToken;
  if (refreshToken) secrets.refreshToken = refreshToken;
  if (apiKey) secrets.apiKey = apiKey;
  if (clientSecret) secrets.clientSecret = clientSecret;
  if (options.secretStdin) {
    const value = await readStdin();
    if (!value) throw new InputError('Standard input was empty.', [{ path: 'secret', message: 'empty' }]);
    if (integration.connection.kind === 'api_key') secrets.apiKey = value;
    else secrets.accessToken = value;
  }
  for (const required of integration.connection.requiredSecrets) {
    if (!secrets[required]) {
      const flag = required === 'apiKey' ? '--api-key-env NAME' : '--access-token-env NAME';
      throw new InputError(
        `A ${integration.id} connection needs its ${required === 'apiKey' ? 'API key' : 'access token'}: pass ${flag} or --secret-stdin.`,
        [{ path: required, message: 'missing' }],
      );
    }
  }
  return secrets;
}

export async function listConnections(_options: unknown, command: Command): Promise<void> {
  const [registry, { connections, secretsRead }] = await Promise.all([cliRegistry(), listedConnections()]);
  const now = Date.now();
  const windowMs = keepAliveWindowMs();
  const rows = connections.map((connection) => {
    const integration = registry.integration(connection.integration);
    const { state, refreshable, expiresAt } = connectionState(connection, integration, now);
    const health = assessHealth(connection, integration, now, windowMs);
    return {
      id: connection.id,
      integration: connection.integration,
      label: connection.label ?? null,
      fields: connection.fields,
      ...definedOnly({ expiresAt: expiresAt ?? undefined }),
      state,
      refreshable,
      health: { ...health, checkedAt: new Date(health.checkedAt).toISOString() },
    };
  });
  if (command.optsWithGlobals().json) {
    printJson(rows);
    return;
  }
  if (!rows.length) {
    process.stdout.write(
      'No connections yet. Add one with: toolsteps connections add <integration> --id <id> ...\n',
    );
    return;
  }
  const refresh = (refreshable: boolean | null) =>
    refreshable ? ', refreshable' : refreshable === null ? ', refresh unknown' : '';
  const token = (row: (typeof rows)[number]) =>
    row.expiresAt === undefined
      ? 'no expiry'
      : `${row.state === 'ok' ? 'valid' : row.state}${refresh(row.refreshable)}`;
  process.stdout.write(
    formatTable(
      ['ID', 'INTEGRATION', 'LABEL', 'HEALTH', 'TOKEN', 'BASE URL'],
      rows.map((row) => [
        row.id,
        row.integration,
        row.label ?? '',
        row.health.state,
        token(row),
        row.fields.baseUrl ?? '(provider)',
      ]),
    ),
  );
  if (!secretsRead) {
    process.stderr.write(
      '(TOOLSTEPS_ENCRYPTION_KEY is not set: listed from the public fields in Redis or Postgres; whether a token can refresh is sealed with its secrets)\n',
    );
  }
}

export async function rekeyConnections(
  options: { trustUnsealed?: boolean },
  command: Command,
): Promise<void> {
  const stores = await cliStores();
  if (!stores.rekey) {
    throw new InputError(
      'connections rekey re-seals the secrets shared through Redis: set TOOLSTEPS_REDIS_URL (the file store keeps secrets in owner-only files).',
      [{ path: 'TOOLSTEPS_REDIS_URL', message: 'required' }],
    );
  }
  const counts = await stores.rekey({ trustUnsealed: Boolean(options.trustUnsealed) });
  if (command.optsWithGlobals().json) printJson(counts);
  else
    process.stdout.write(
      `Re-wrapped ${counts.dataKeys.rewrapped} of ${counts.dataKeys.total} tenant data keys with the current key; re-sealed under their tenant's data key ${counts.connections.rekeyed} of ${counts.connections.total} connections and ${counts.subscriptions.rekeyed} of ${counts.subscriptions.total} subscriptions still sealed with a master key.\n`,
    );
  if (counts.guardsMade > 0 && !command.optsWithGlobals().json) {
    // A missing guard is also what a writer's deletion looks like: say what was made, and what it means.
    process.stderr.write(
      `Sealed a first, empty guard for ${counts.guardsMade} tenants whose data key had none (made before this toolsteps): revoke again any token revoked before the upgrade, and set their limits again.\n`,
    );
  }
  const unsealed = [...counts.connections.unsealed, ...counts.subscriptions.unsealed];
  if (unsealed.length > 0) {
    // Nothing vouches for these records' public fields, so they stay refused until the operator vouches.
    process.stderr.write(
      `Left unsealed, and refused when used: ${unsealed.join(', ')} (stored before public fields were sealed). Check their base URLs and fields with \`toolsteps connections list\`, then run \`toolsteps connections rekey --trust-unsealed\`.\n`,
    );
  }
}
