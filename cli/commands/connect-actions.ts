import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { parseConnectionFields, resolveBaseUrl } from '../../src/connection/connection-fields.js';
import {
  authorizeViaLoopback,
  followAuthorizeRedirects,
} from '../../src/connection/loopback-authorization.js';
import type { TokenSet } from '../../src/connection/oauth-client.js';
import { InputError } from '../../src/errors/input-error.js';
import type { Connection } from '../../src/model/connection.js';
import type { Integration } from '../../src/model/define-integration.js';
import { checkConnection } from '../../src/store/check-connection.js';
import { definedOnly } from '../../src/values/defined-only.js';
import { cliContext } from '../cli-context.js';
import { connectionIdOption, integerOption } from '../option-values.js';
import { printJson } from '../output.js';
import { refuseOverwrite } from './existing-connection.js';
import { secretFromEnv } from './secret-sources.js';

export interface ConnectOptions {
  id: string;
  label?: string;
  subdomain?: string;
  teamId?: string;
  baseUrl?: string;
  clientId: string;
  clientSecretEnv?: string;
  scopes?: string;
  callbackPort: string;
  open?: boolean;
  force?: boolean;
  timeout: string;
  refreshTokenDays?: string;
}

/** The longest `--timeout` for a sign-in: an hour, in seconds. */
export const MAX_SIGN_IN_S = 3600;

export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

export function openInBrowser(url: string): void {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(opener, [url], { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
}

/** Checks every flag, runs the browser sign-in with a loopback callback, and stores the tokens. */
export async function connect(
  integrationId: string,
  options: ConnectOptions,
  command: Command,
): Promise<void> {
  const { registry, store, runtime } = await cliContext();
  const integration = registry.integration(integrationId);
  if (!integration?.connection.oauth) {
    throw new InputError(`"${integrationId}" is not an OAuth integration; use: toolsteps connections add.`, [
      { path: 'integration', message: 'not OAuth' },
    ]);
  }
  // Everything the user typed is checked before the flow starts: a bad
  // value must not surface only after sign-in, with the tokens lost.
  connectionIdOption(options.id);
  const callbackPort = integerOption(options.callbackPort, '--callback-port', { min: 0, max: 65535 });
  const timeoutS = integerOption(options.timeout, '--timeout', { min: 1, max: MAX_SIGN_IN_S });
  const fields = parseConnectionFields(
    integration,
    definedOnly({
      clientId: options.clientId,
      subdomain: options.subdomain || undefined,
      teamId: options.teamId || undefined,
      baseUrl: options.baseUrl || undefined,
    }),
  );
  const baseUrl = resolveBaseUrl(integration, { fields });
  const clientSecret = secretFromEnv(options.clientSecretEnv, 'client secret');
  const scopes = options.scopes?.split(/\s+/).filter(Boolean);
  const draft = (secrets: Connection['secrets'], tokens?: TokenSet): Connection =>
    connectionDraft({
      integration,
      options,
      fields,
      secrets: { ...secrets, ...definedOnly({ clientSecret }) },
      tokens,
    });
  draft({ accessToken: 'not-yet-issued' });
  await refuseOverwrite(store, options.id, options.force);
  if (isLoopback(baseUrl)) {
    process.stderr.write(
      `Connecting to the local sandbox at ${baseUrl}: it approves the sign-in at once, no browser needed.\n`,
    );
  }
  const tokens = await authorizeViaLoopback({
    integration,
    baseUrl,
    clientId: options.clientId,
    ...definedOnly({
      clientSecret,
      scopes: scopes?.length ? scopes : undefined,
      refreshTokenLifetimeS: refreshTokenLifetimeOf(options),
    }),
    callbackPort,
    timeoutMs: timeoutS * 1000,
    fetch: runtime.fetch,
    dispatcher: runtime.httpDispatcher,
    clock: runtime.clock,
    openAuthorizeUrl: async (url) => {
      // The sandbox approves at once, so a loopback provider needs no browser.
      if (isLoopback(baseUrl)) return followAuthorizeRedirects(url);
      process.stderr.write(
        `Open this address to sign in and allow access (waiting ${timeoutS} s; --timeout changes it):\n  ${url}\n` +
          '  To try everything offline instead, start `toolsteps sandbox` and pass the --base-url it prints.\n',
      );
      if (options.open) openInBrowser(url);
    },
  });
  const connection = draft(
    { accessToken: tokens.accessToken, ...definedOnly({ refreshToken: tokens.refreshToken }) },
    tokens,
  );
  const entry = { action: 'connection.store' as const, target: connection.id, integration: integration.id };
  await runtime.recordWrite(entry, () => store.put(connection));
  if (command.optsWithGlobals().json)
    printJson({ id: connection.id, integration: integration.id, connected: true });
  else process.stdout.write(`Connected "${connection.id}" (${integration.title}).\n`);
}

/** `--refresh-token-days` in seconds (the provider's bounds are applied when it is sent). */
function refreshTokenLifetimeOf(options: ConnectOptions): number | undefined {
  if (options.refreshTokenDays === undefined) return undefined;
  return integerOption(options.refreshTokenDays, '--refresh-token-days', { min: 1, max: 366 }) * 86_400;
}

/** The connection to store, checked like any other; called once before sign-in so a bad value fails early. */
export function connectionDraft(parts: {
  integration: Integration;
  options: ConnectOptions;
  fields: Connection['fields'];
  secrets: Connection['secrets'];
  tokens?: TokenSet | undefined;
}): Connection {
  const { integration, options, fields, secrets, tokens } = parts;
  const now = Date.now();
  return checkConnection({
    id: options.id,
    integration: integration.id,
    ...definedOnly({
      label: options.label || undefined,
      expiresAt: tokens?.expiresAt || undefined,
      refreshExpiresAt: tokens?.refreshExpiresAt,
      scopes: tokens?.scopes,
    }),
    kind: integration.connection.kind,
    fields,
    secrets,
    createdAt: now,
    updatedAt: now,
  });
}
