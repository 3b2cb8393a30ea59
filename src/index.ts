/**
 * The public API of toolsteps. Everything an embedder needs is listed by
 * name, here or, for the step authors' kit it holds whole (`toolsteps/kit`),
 * in src/kit/index.ts; anything not exported is internal and may change.
 * What defines a step, an integration or a trigger is public to embedders
 * too, and one list keeps the two entries from drifting apart.
 *
 * @module toolsteps
 */

export { buildManifest, type Manifest, serializeManifest } from './catalog/manifest.js';
export type { SearchHit, TriggerSearchHit } from './catalog/registry.js';
export { parseConnectionFields, resolveBaseUrl } from './connection/connection-fields.js';
export {
  assessHealth,
  DEFAULT_KEEP_ALIVE_WINDOW_MS,
  type HealthView,
} from './connection/connection-health.js';
export { authorizeViaLoopback, followAuthorizeRedirects } from './connection/loopback-authorization.js';
export { buildAuthorizeUrl, exchangeCode, refreshTokens, type TokenSet } from './connection/oauth-client.js';
export { createPkcePair } from './connection/pkce.js';
export {
  type PendingRevocationOutcome,
  type PendingRevocationSource,
  type RetryPendingOptions,
  type RetryPendingReport,
  retryPendingRevocations,
} from './connection/retry-pending-revocations.js';
export { DEFAULT_REVOCATION_ATTEMPTS, type RevocationSchedule } from './connection/revocation-schedule.js';
export { type GrantAttempt, notRevocable, revokeGrant } from './connection/revoke-grant.js';
export type { CoordinationStatus, Coordinator, HeldLock } from './coordination/coordinator.js';
export { LocalCoordinator } from './coordination/local-coordinator.js';
export {
  type CoordinationConfig,
  describeCoordination,
  openCoordinator,
} from './coordination/open-coordinator.js';
export { openRedisStores, type RedisStores } from './coordination/open-redis-stores.js';
export {
  AbortedError,
  AuthError,
  CreditError,
  type CreditsSpent,
  EncryptionKeyError,
  type ErrorCode,
  type ErrorInit,
  type ErrorJson,
  type FieldIssue,
  InputError,
  isToolstepsError,
  NetworkError,
  NotFoundError,
  type Outcome,
  OutputError,
  PermissionError,
  PlanError,
  ProviderError,
  RateLimitError,
  ResponseTooLargeError,
  redactSecrets,
  SchemaError,
  type Sent,
  TamperedRecordError,
  TenantLimitError,
  type TenantLimitName,
  TimeoutError,
  TokenKeyError,
  type TokenKeyProblem,
  ToolstepsError,
} from './errors/index.js';
export { closeSharedDispatcher, createDispatcher, type DispatcherOptions } from './http/dispatcher-wire.js';
export type { RetryOptions } from './http/retries.js';
// The step authors' kit, whole (see above).
export * from './kit/index.js';
export { compileMapping, mapVariables, type VariableMapping } from './mapping/mapping.js';
export type { MovedPath, UnmatchedPath } from './mapping/mapping-upgrade.js';
export type { PathMap } from './mapping/path-map.js';
export { validateBaseUrl } from './model/base-url.js';
export { type Clock, ManualClock, systemClock } from './model/clock.js';
export {
  Connection,
  ConnectionKind,
  ConnectionSecrets,
  type PublicConnection,
  toPublicConnection,
} from './model/connection.js';
export {
  ConnectionHealth,
  ConnectionHealthState,
  connectionHealthStates,
  RefreshOutcome,
} from './model/connection-health.js';
export { type Logger, MemoryLogger, silentLogger } from './model/logger.js';
export { PendingRevocation } from './model/pending-revocation.js';
export type { RateLimitSnapshot, RateLimitWindow } from './model/rate-limit.js';
export { RevocationReport, RevocationState, revocationStates } from './model/revocation-report.js';
export {
  type PublicSubscription,
  Subscription,
  subscriptionUrl,
  toPublicSubscription,
} from './model/subscription.js';
export {
  DEFAULT_TENANT,
  isTenantId,
  parseTenantId,
  TENANT_ID_PATTERN,
  type TenantId,
} from './model/tenant-id.js';
export { TenantLimits } from './model/tenant-limits.js';
export type { HandOff, TriggerEvent, TriggerEventHandler } from './model/trigger-event.js';
export { type DescribedInput, OPTIONS_KEYWORD, type OptionsMark } from './options/described-input.js';
export type { OptionsAnswer, OptionsCall } from './options/resolve-options.js';
export { MAX_CACHED_ANSWERS } from './runtime/answer-cache.js';
export { HEALTH_EVENTS_SUBSCRIPTION, type HealthChange, healthEvent } from './runtime/health-change.js';
export {
  DEFAULT_CHECK_EVERY_MS,
  type KeepAliveOptions,
  type KeepAliveReport,
  keepAlivePass,
} from './runtime/keep-alive-pass.js';
export {
  DEFAULT_KEEP_ALIVE_PERIOD_MS,
  type KeepAliveSchedule,
  type KeepAliveScheduleOptions,
  startKeepAliveSchedule,
} from './runtime/keep-alive-schedule.js';
export {
  type ConnectionRemoval,
  type RemoveConnectionOptions,
  removeConnection,
} from './runtime/remove-connection.js';
export {
  type InvocationMeta,
  type InvocationResult,
  type InvokeOptions,
  Runtime,
  type RuntimeOptions,
  type Transport,
} from './runtime/runtime.js';
export type { ReplayDecision } from './runtime/settle-replays.js';
export { BUILDER_MAX_BODY_BYTES, INTAKE_MAX_BODY_BYTES, MCP_MAX_BODY_BYTES } from './server/body-limits.js';
export { AccountField, AccountFieldType } from './step/account-fields.js';
export { MAX_OPTION_ITEMS, OPTIONS_CACHE_TTL_MS, OptionItem, OptionsPage } from './step/options-source.js';
export { AuditSeal } from './store/audit/audit-chain.js';
export {
  AuditProblem,
  type AuditQuery,
  type AuditReading,
  AuditRecord,
  type AuditTrail,
  StepRunRecord,
  verifyTrail,
  WriteRecord,
} from './store/audit/audit-trail.js';
export type { ConnectionStore } from './store/connection-store.js';
export type { ClaimOutcome, DedupeStore } from './store/dedupe-store.js';
export { FileAuditTrail } from './store/files/file-audit-trail.js';
export { defaultToolstepsHome, FileConnectionStore } from './store/files/file-connection-store.js';
export { FileDedupeStore } from './store/files/file-dedupe-store.js';
export { FileSubscriptionStore } from './store/files/file-subscription-store.js';
export { FileTenantStores, type FileTenantView } from './store/files/file-tenant-stores.js';
export type { TenantLimitStore } from './store/limit-store.js';
export { MemoryAuditTrail } from './store/memory/memory-audit-trail.js';
export { MemoryConnectionStore } from './store/memory/memory-connection-store.js';
export { MemoryDedupeStore } from './store/memory/memory-dedupe-store.js';
export { MemoryLimitStore } from './store/memory/memory-limit-store.js';
export { MemorySubscriptionStore } from './store/memory/memory-subscription-store.js';
export { MemoryTenantStores } from './store/memory/memory-tenant-stores.js';
export { MemoryTokenRevocations } from './store/memory/memory-token-revocations.js';
export type { MigrateResult } from './store/postgres/migrate.js';
export { migrateDatabase } from './store/postgres/migrate-database.js';
export {
  type PostgresScopedStores,
  type PostgresStoresOptions,
  PostgresTenantStores,
} from './store/postgres/postgres-tenant-stores.js';
export { RedisAuditTrail } from './store/redis/redis-audit-trail.js';
export { RedisConnectionStore } from './store/redis/redis-connection-store.js';
export { RedisSubscriptionStore } from './store/redis/redis-subscription-store.js';
export {
  RedisTenantStores,
  type RedisTenantStoresOptions,
  type RedisTenantView,
  type TenantRekeyCounts,
} from './store/redis/redis-tenant-stores.js';
export { SecretBox } from './store/sealed/secret-box.js';
export type { SubscriptionStore } from './store/subscription-store.js';
export type { TenantScopedStores, TenantStores, TenantSummary } from './store/tenant-stores.js';
export type { TokenRevocations } from './store/token-revocations.js';
export { withLock } from './store/with-lock.js';
export { eraseTenant, type TenantErasure, type TenantErasureOptions } from './tenants/erase-tenant.js';
export { TOKEN_ALGORITHM, TOKEN_CLOCK_SKEW_S } from './tenants/jwt-principal.js';
export {
  MAX_TOKEN_TTL_MS,
  type ScopedPrincipal,
  TOKEN_SCOPES,
  type TokenClaims,
  type TokenScope,
  tokenClaimsSchema,
} from './tenants/scoped-token.js';
export { type SignedToken, type SignTokenOptions, signToken } from './tenants/sign-token.js';
export { TokenKey } from './tenants/token-key.js';
export { TOKEN_KEY_VARIABLE, TOKEN_KEYS_VARIABLE, TokenKeys } from './tenants/token-keys.js';
export { type VerifyTokenOptions, verifyToken } from './tenants/verify-token.js';
export { type Entitlements, requireTriggerPlan, TRIGGERS_PLAN } from './triggers/entitlements.js';
export { toFetchHandler } from './triggers/intake/fetch-handler.js';
export {
  createIntake,
  type DeliveryContext,
  type Intake,
  type IntakeAnswer,
  type IntakeOptions,
  type IntakeRequest,
} from './triggers/intake/intake.js';
export { IntakeRefusal, type RefusalCode } from './triggers/intake/intake-refusal.js';
export {
  createIntakeServer,
  DEFAULT_INTAKE_SERVER_LIMITS,
  type IntakeServerLimits,
} from './triggers/intake/intake-server.js';
export { toNodeListener } from './triggers/intake/node-listener.js';
export { DEFAULT_MAX_BODY_BYTES } from './triggers/intake/read-body-within-limit.js';
export {
  findOrphanWebhooks,
  type HookedWebhook,
  type OrphanScan,
  type OrphanScanOptions,
  type PrunedWebhook,
  pruneOrphanWebhooks,
} from './triggers/orphan-webhooks.js';
export type { ProviderRemoval, SubscriptionRemoval } from './triggers/remove-at-provider.js';
export {
  planSubscriptionUpgrades,
  type SubscriptionUpgrade,
  type UpgradeSubscriptionsOptions,
  upgradeSubscriptions,
} from './triggers/subscription-upgrades.js';
export {
  type CreateSubscriptionRequest,
  TriggerSubscriptions,
  type TriggerSubscriptionsOptions,
} from './triggers/trigger-subscriptions.js';
