import { sandboxConnectSettings } from '../../cli/sandbox-connect-settings.js';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import type { BuilderServerOptions, ConnectSetting } from '../../src/builder/builder-options.js';
import { type RunningBuilderServer, startBuilderServer } from '../../src/builder/builder-server.js';
import { SessionTokens } from '../../src/builder/session-tokens.js';
import { parseTenantId, type TenantId } from '../../src/model/tenant-id.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { createRegistry } from '../../steps/index.js';
import { CookieJar } from '../support/cookie-jar.js';

/** The page origin the tests' builder server allows. */
export const PAGE_ORIGIN = 'https://builder.example';

export interface BuilderWorld {
  sandbox: Sandbox;
  server: RunningBuilderServer;
  tenants: MemoryTenantStores;
  tokens: SessionTokens;
  /** A builder-scoped token of `tenant` (default `acme`). */
  token(
    tenant?: string,
    options?: { scopes?: string[]; readOnly?: boolean; ttlMs?: number; integrations?: string[] },
  ): string;
  /** A request to the API with that token (or none with `token: null`), from the allowed origin unless told. */
  api(path: string, init?: ApiInit): Promise<Response>;
  /**
   * The `Cookie` header a browser that made this world's API requests would
   * send to the OAuth callback: the sign-in cookies their answers set.
   */
  cookies(): string;
  /** The same, answering the JSON body with the status. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers whose shape the schemas hold.
  json<T = Record<string, any>>(path: string, init?: ApiInit): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  token?: string | null;
  origin?: string | null;
  headers?: Record<string, string>;
}

/** The sandbox, and a builder server over in-memory tenant stores with the sandbox's connect settings. */
export async function openBuilderWorld(
  options: Partial<BuilderServerOptions> & {
    adjustConnect?: (connect: Record<string, ConnectSetting>) => void;
  } = {},
): Promise<BuilderWorld> {
  const { adjustConnect, ...serverOptions } = options;
  const sandbox = await startSandbox({ webhooks: { firstRetryMs: 20 } });
  const connect = sandboxConnectSettings(sandbox);
  adjustConnect?.(connect);
  const tenants = new MemoryTenantStores();
  const tokens = new SessionTokens();
  const server = await startBuilderServer({
    registry: createRegistry(),
    tenants,
    tokens,
    dedupe: new MemoryDedupeStore(),
    connect,
    allowedOrigins: [PAGE_ORIGIN],
    ...serverOptions,
  });
  const jar = new CookieJar();
  const token: BuilderWorld['token'] = (tenant = 'acme', settings = {}) =>
    tokens.mint(parseTenantId(tenant), { ttlMs: settings.ttlMs ?? 60_000, ...settings });
  const defaultToken = token();
  const api = (path: string, init: ApiInit = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const bearer = init.token === undefined ? defaultToken : init.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (init.origin !== null) headers.origin = init.origin ?? PAGE_ORIGIN;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${server.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(init.body === undefined
        ? {}
        : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
      redirect: 'manual',
    }).then((response) => {
      jar.keep(response);
      return response;
    });
  };
  return {
    sandbox,
    server,
    tenants,
    tokens,
    token,
    api,
    cookies: () => jar.header(),
    json: async (path, init) => {
      const response = await api(path, init);
      return { status: response.status, body: await response.json() };
    },
    close: async () => {
      await server.close();
      await sandbox.close();
    },
  };
}

/** One tenant's view of the world's stores. */
export function storesOf(world: BuilderWorld, tenant = 'acme') {
  return world.tenants.forTenant(parseTenantId(tenant) as TenantId);
}

/** The provider's allow screen, answered: where it sends the browser back (the callback with state and code). */
export async function allowAtProvider(world: BuilderWorld, authorizeUrl: string): Promise<string> {
  const allow = await fetch(authorizeUrl, { redirect: 'manual' });
  const callback = allow.headers.get('location');
  if (allow.status !== 302 || !callback?.startsWith(`${world.server.url}/v1/oauth/callback?`)) {
    throw new Error(`the allow screen answered ${allow.status}, to ${callback}`);
  }
  return callback;
}

/**
 * Plays the person's browser: opens the authorize URL, follows the
 * sandbox's allow screen back to the callback, and sends the callback the
 * sign-in cookies the browser holds (by default those of the world's own
 * API requests: the browser that started the flow).
 */
export async function followSignIn(
  world: BuilderWorld,
  authorizeUrl: string,
  cookie = world.cookies(),
): Promise<Response> {
  const callback = await allowAtProvider(world, authorizeUrl);
  return fetch(callback, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

/** A ticketing connection of the token's tenant, made through the API's redirect flow. */
export async function connectTicketing(world: BuilderWorld, id: string, token?: string): Promise<void> {
  const started = await world.json('/v1/connections', {
    body: { integration: 'ticketing', id },
    ...(token ? { token } : {}),
  });
  if (started.status !== 200) throw new Error(JSON.stringify(started.body));
  await followSignIn(world, started.body.authorizeUrl);
}
