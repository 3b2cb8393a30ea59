import type { Registry } from '../catalog/registry.js';
import { InputError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import type { TenantId } from '../model/tenant-id.js';
import type { TriggerEventHandler } from '../model/trigger-event.js';
import type { Runtime } from '../runtime/runtime.js';
import { isLoopbackHost } from '../server/host-origin-guard.js';
import type { DedupeStore } from '../store/dedupe-store.js';
import type { TenantScopedStores, TenantStores } from '../store/tenant-stores.js';
import type { Entitlements } from '../triggers/entitlements.js';
import type { IntakeTenants } from '../triggers/intake/intake-tenants.js';
import { type BuilderConnectionLimits, checkConnectionLimits } from './builder-connection-limits.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { TokenRateLimitOptions } from './token-rate-limit.js';
import type { TokenVerifier } from './token-verifier.js';

/**
 * How the server connects accounts of one integration. The OAuth client's
 * secret stays here: the page sees only the authorize URL.
 */
export interface ConnectSetting {
  flow: 'redirect' | 'popup' | 'api_key';
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  scopes?: readonly string[] | undefined;
  /** Public fields every connection of the integration gets (a sandbox base URL, a fixed subdomain). */
  fields?: Readonly<Record<string, string>> | undefined;
}

export interface BuilderServerOptions {
  registry: Registry;
  /** Every tenant's records; each request works only in its token's tenant's view. */
  tenants: TenantStores;
  tokens: TokenVerifier;
  /** Where the intake remembers handled event ids (every tenant's, unless `intakeTenants` says otherwise). */
  dedupe: DedupeStore;
  /**
   * The stores the webhook intake uses for a tenant a delivery's path names
   * (its subscriptions and its own dedupe records), undefined for a tenant
   * with no subscription. Default: the tenant's subscriptions, with `dedupe`.
   */
  intakeTenants?: IntakeTenants | undefined;
  /** Integration id to how its accounts are connected; an integration not listed cannot be connected here. */
  connect?: Readonly<Record<string, ConnectSetting>> | undefined;
  /** Browser origins (`https://builder.example.com`) that may call the API; no other gets CORS headers. */
  allowedOrigins?: readonly string[] | undefined;
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** Default 0: any free port. */
  port?: number | undefined;
  /**
   * The URL providers and browsers reach this server at (webhook deliveries,
   * the OAuth callback). Default: the address it listens on.
   */
  publicUrl?: string | undefined;
  /** The organisation's plan: triggers need Enterprise. Default Enterprise. */
  entitlements?: Entitlements | undefined;
  /** A runtime over one tenant's connections. Default: one over the tenant's store, with the server's clock. */
  runtimeFor?: ((tenant: TenantId, stores: TenantScopedStores) => Runtime) | undefined;
  /** Request bodies over this are refused unread. Default 64 KB. */
  maxBodyBytes?: number | undefined;
  rateLimit?: TokenRateLimitOptions | undefined;
  /** OAuth sign-ins held at once, per tenant and in all (docs/security.md). */
  signIns?: SignInLimits | undefined;
  /** Connections, per address and in all, and how long a request may take to arrive. Defaults: DEFAULT_BUILDER_CONNECTION_LIMITS. */
  connectionLimits?: BuilderConnectionLimits | undefined;
  /** Event streams open at once across every tenant (each also 16 per tenant). Default 128. */
  maxEventStreams?: number | undefined;
  /** A folder served at `/` (the reference page); absent: only the API. */
  staticRoot?: string | undefined;
  /** Told of every event the intake starts, after the tenant's streams are. */
  onEvent?:
    | ((tenant: TenantId, ...args: Parameters<TriggerEventHandler>) => Promise<void> | void)
    | undefined;
  clock?: Clock | undefined;
}

/** Refuses options that would serve an unsafe API: an allowed "origin" that is no origin, plain http beyond loopback, or limits that are no limits. */
export function checkServerOptions(options: BuilderServerOptions, host: string): void {
  checkConnectionLimits(options.connectionLimits);
  const streams = options.maxEventStreams;
  if (streams !== undefined && (!Number.isSafeInteger(streams) || streams < 1)) {
    throw new InputError('maxEventStreams must be a positive whole number.', [
      { path: 'maxEventStreams', message: 'a positive whole number' },
    ]);
  }
  for (const origin of options.allowedOrigins ?? []) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
      throw new InputError(`Allowed origin "${origin}" is not an origin (scheme, host and port only).`, [
        { path: 'allowedOrigins', message: 'an origin such as https://builder.example.com' },
      ]);
    }
  }
  if (!isLoopbackHost(host) && !options.publicUrl?.startsWith('https://')) {
    throw new InputError(
      `Serving the builder API on ${host} needs an https publicUrl (a TLS proxy in front).`,
      [{ path: 'publicUrl', message: 'https URL required beyond loopback' }],
    );
  }
}
