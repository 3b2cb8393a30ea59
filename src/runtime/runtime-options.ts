import type { Coordinator } from '../coordination/coordinator.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http/attempt.js';
import { defaultRetryOptions, type RetryOptions } from '../http/retries.js';
import { type Clock, systemClock } from '../model/clock.js';
import { type Logger, silentLogger } from '../model/logger.js';
import { DEFAULT_TENANT, parseTenantId, type TenantId } from '../model/tenant-id.js';
import type { TenantLimits } from '../model/tenant-limits.js';
import type { AuditTrail, StepRunRecord } from '../store/audit/audit-trail.js';
import type { ConnectionStore } from '../store/connection-store.js';
import type { TenantLimitStore } from '../store/limit-store.js';
import { MemoryConnectionStore } from '../store/memory/memory-connection-store.js';
import { MemoryLimitStore } from '../store/memory/memory-limit-store.js';
import type { TenantScopedStores, TenantStores } from '../store/tenant-stores.js';
import { type ResolvedTransport, resolveTransport, type Transport } from './transport-option.js';

/** How a Runtime is set up; every field is optional, so a runtime with in-memory stores and the shared transport needs none. */
export interface RuntimeOptions {
  /**
   * The tenant (one organization of the embedding platform) this runtime
   * works for; default `DEFAULT_TENANT`. It reaches that tenant's
   * connections only, and its rate gates, idempotency records and shared
   * credit budgets are kept apart from every other tenant's.
   */
  tenant?: TenantId;
  /**
   * Every tenant's records (`FileTenantStores`, `RedisTenantStores`,
   * `MemoryTenantStores`): the runtime takes `tenantStores.forTenant(tenant)`
   * and nothing else. Give this or `store`, not both.
   */
  tenantStores?: TenantStores;
  /** One tenant's connection store, used as `tenant`'s as it is (the embedder persists it). */
  store?: ConnectionStore;
  clock?: Clock;
  /**
   * How requests reach the provider: `'undici'` (default), `'fetch'`,
   * `'node-http'`, `{ dispatcher }` or `{ fetch }`. See `Transport`, and the
   * table in docs/transport.md. OAuth token requests always use a fetch.
   */
  transport?: Transport;
  logger?: Logger;
  retry?: Partial<RetryOptions>;
  /** Refresh OAuth tokens this long before they expire. Default 5 minutes. */
  refreshMarginMs?: number;
  /**
   * How long to ask refresh tokens to live, in seconds, by integration id,
   * where the provider lets the client choose (ticketing: 7 to 90 days, 30
   * when not asked): sent on every refresh, clamped to the provider's bounds.
   */
  refreshTokenLifetimes?: Readonly<Record<string, number>>;
  /** Longest wait the rate gate accepts before failing. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** Time limit of one HTTP attempt. Default 30 s. */
  requestTimeoutMs?: number;
  /** Most bytes of one answer's body; a larger answer fails with ResponseTooLargeError. Default 32 MiB. */
  maxResponseBytes?: number;
  /**
   * Where rules shared by several workers live (`openCoordinator()`): with a
   * Redis coordinator, every connection's rate gate is one budget for all
   * workers. Default: in-process, each runtime keeps its own gates.
   */
  coordination?: Coordinator;
  /**
   * Who runs this runtime's steps, as its audit records name it: `cli`,
   * `mcp`, a token id, or any label of the embedder's (default `library`).
   * One invocation can name another (`InvokeOptions.caller`).
   */
  caller?: string;
  /**
   * Where write and destructive step runs are recorded. Default: the
   * tenant's trail in `tenantStores`; with only `store`, none unless given.
   */
  audit?: AuditTrail;
  /**
   * Called when an audit record could not be appended (the store is away):
   * the run's result or error still reaches the caller, and this is where an
   * embedder raises the alarm. Default: a warning in the log.
   */
  onAuditFailure?: (error: unknown, record: StepRunRecord) => void;
  /**
   * The tenant's fair-share limits, checked before anything is sent: a
   * store (default: the tenant's in `tenantStores`, read again every few
   * seconds) or fixed limits. Counted in the coordinator, so every worker
   * sharing a Redis coordinator shares them.
   */
  limits?: TenantLimitStore | TenantLimits;
}

/** Every option of a runtime with its default applied and its transport resolved. */
export interface RuntimeSettings {
  tenant: TenantId;
  /** The tenant's stores when `tenantStores` was given. */
  stores: TenantScopedStores | undefined;
  store: ConnectionStore;
  clock: Clock;
  logger: Logger;
  transport: ResolvedTransport;
  retry: RetryOptions;
  refreshMarginMs: number;
  refreshTokenLifetimes: Readonly<Record<string, number>> | undefined;
  maxRateLimitWaitMs: number;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  coordination: Coordinator | undefined;
  caller: string;
  audit: AuditTrail | undefined;
  onAuditFailure: ((error: unknown, record: StepRunRecord) => void) | undefined;
  limits: TenantLimitStore | undefined;
}

/**
 * Options that `transport` replaced: a JavaScript caller still passing one
 * would otherwise have it ignored, and its requests would silently take
 * another path (past a test's interceptor, say).
 */
const REPLACED: Readonly<Record<string, string>> = {
  fetch: 'transport: { fetch }',
  dispatcher: "transport: { dispatcher }, or transport: 'fetch' for fetch's own dispatcher",
};

export function settleOptions(options: RuntimeOptions): RuntimeSettings {
  for (const [name, instead] of Object.entries(REPLACED)) {
    if ((options as Record<string, unknown>)[name] !== undefined) {
      throw new TypeError(`RuntimeOptions has no "${name}"; pass ${instead}.`);
    }
  }
  if (options.store && options.tenantStores) {
    throw new TypeError('RuntimeOptions takes `store` or `tenantStores`, not both.');
  }
  const tenant = options.tenant === undefined ? DEFAULT_TENANT : parseTenantId(options.tenant);
  const stores = options.tenantStores?.forTenant(tenant);
  return {
    tenant,
    stores,
    store: stores?.connections ?? options.store ?? new MemoryConnectionStore(),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
    transport: resolveTransport(options.transport),
    retry: { ...defaultRetryOptions, ...options.retry },
    refreshMarginMs: options.refreshMarginMs ?? 5 * 60_000,
    refreshTokenLifetimes: options.refreshTokenLifetimes,
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 60_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    // A shared coordinator is the same for every tenant: each runtime keeps to its tenant's keys.
    coordination: options.coordination?.forTenant(tenant),
    caller: options.caller ?? 'library',
    audit: options.audit ?? stores?.audit,
    onAuditFailure: options.onAuditFailure,
    limits: limitStoreOf(options.limits) ?? stores?.limits,
  };
}

/** Limits given as a store, as fixed values, or not at all. */
function limitStoreOf(limits: TenantLimitStore | TenantLimits | undefined): TenantLimitStore | undefined {
  if (limits === undefined) return undefined;
  return typeof (limits as TenantLimitStore).get === 'function'
    ? (limits as TenantLimitStore)
    : new MemoryLimitStore(limits as TenantLimits);
}
