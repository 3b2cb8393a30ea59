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
export { type Clock, ManualClock, systemClock } from './clock.js';
export { validateBaseUrl } from './connection/base-url.js';
export {
  Connection,
  ConnectionKind,
  ConnectionSecrets,
  type PublicConnection,
  toPublicConnection,
} from './connection/connection.js';
export { parseConnectionFields, resolveBaseUrl } from './connection/connection-fields.js';
export { authorizeViaLoopback, followAuthorizeRedirects } from './connection/loopback-authorization.js';
export { buildAuthorizeUrl, exchangeCode, refreshTokens, type TokenSet } from './connection/oauth-client.js';
export { createPkcePair } from './connection/pkce.js';
export type { CoordinationStatus, Coordinator, HeldLock } from './coordination/coordinator.js';
export { LocalCoordinator } from './coordination/local-coordinator.js';
export {
  type CoordinationConfig,
  describeCoordination,
  openCoordinator,
} from './coordination/open-coordinator.js';
export { withLock } from './coordination/with-lock.js';
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
export type { RateLimitSnapshot, RateLimitWindow } from './http/rate-limit.js';
export type { RetryOptions } from './http/retries.js';
// The step authors' kit, whole (see above).
export * from './kit/index.js';
export { type Logger, MemoryLogger, silentLogger } from './logger.js';
export { compileMapping, mapVariables, type VariableMapping } from './mapping/mapping.js';
export { AccountField, AccountFieldType } from './options/account-fields.js';
export { MAX_CACHED_ANSWERS } from './options/answer-cache.js';
export { type DescribedInput, OPTIONS_KEYWORD, type OptionsMark } from './options/described-input.js';
export { MAX_OPTION_ITEMS, OPTIONS_CACHE_TTL_MS, OptionItem, OptionsPage } from './options/options-source.js';
export type { OptionsAnswer, OptionsCall } from './options/resolve-options.js';
export {
  type InvocationMeta,
  type InvocationResult,
  type InvokeOptions,
  Runtime,
  type RuntimeOptions,
  type Transport,
} from './runtime/runtime.js';
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
export { FileAuditTrail } from './store/audit/file-audit-trail.js';
export { MemoryAuditTrail } from './store/audit/memory-audit-trail.js';
export { RedisAuditTrail } from './store/audit/redis-audit-trail.js';
export type { ConnectionStore } from './store/connections/connection-store.js';
export { defaultToolstepsHome, FileConnectionStore } from './store/connections/file-connection-store.js';
export { MemoryConnectionStore } from './store/connections/memory-connection-store.js';
export { RedisConnectionStore } from './store/connections/redis-connection-store.js';
export type { ClaimOutcome, DedupeStore } from './store/dedupe/dedupe-store.js';
export { FileDedupeStore } from './store/dedupe/file-dedupe-store.js';
export { MemoryDedupeStore } from './store/dedupe/memory-dedupe-store.js';
export { openRedisStores, type RedisStores } from './store/open-redis-stores.js';
export type { MigrateResult } from './store/postgres/migrate.js';
export { migrateDatabase } from './store/postgres/migrate-database.js';
export {
  type PostgresScopedStores,
  type PostgresStoresOptions,
  PostgresTenantStores,
} from './store/postgres/postgres-tenant-stores.js';
export { SecretBox } from './store/sealed/secret-box.js';
export { FileSubscriptionStore } from './store/subscriptions/file-subscription-store.js';
export { MemorySubscriptionStore } from './store/subscriptions/memory-subscription-store.js';
export { RedisSubscriptionStore } from './store/subscriptions/redis-subscription-store.js';
export type { SubscriptionStore } from './store/subscriptions/subscription-store.js';
export { eraseTenant, type TenantErasure, type TenantErasureOptions } from './tenants/erase-tenant.js';
export { FileTenantStores, type FileTenantView } from './tenants/file-tenant-stores.js';
export { TOKEN_ALGORITHM, TOKEN_CLOCK_SKEW_S } from './tenants/jwt-principal.js';
export { MemoryTenantStores } from './tenants/memory-tenant-stores.js';
export {
  RedisTenantStores,
  type RedisTenantStoresOptions,
  type RedisTenantView,
  type TenantRekeyCounts,
} from './tenants/redis-tenant-stores.js';
export {
  MAX_TOKEN_TTL_MS,
  type ScopedPrincipal,
  TOKEN_SCOPES,
  type TokenClaims,
  type TokenScope,
  tokenClaimsSchema,
} from './tenants/scoped-token.js';
export { type SignedToken, type SignTokenOptions, signToken } from './tenants/sign-token.js';
export {
  DEFAULT_TENANT,
  isTenantId,
  parseTenantId,
  TENANT_ID_PATTERN,
  type TenantId,
} from './tenants/tenant-id.js';
export { MemoryLimitStore, type TenantLimitStore, TenantLimits } from './tenants/tenant-limits.js';
export type { TenantScopedStores, TenantStores, TenantSummary } from './tenants/tenant-stores.js';
export { TokenKey } from './tenants/token-key.js';
export { TOKEN_KEY_VARIABLE, TOKEN_KEYS_VARIABLE, TokenKeys } from './tenants/token-keys.js';
export { MemoryTokenRevocations, type TokenRevocations } from './tenants/token-revocations.js';
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
  type PublicSubscription,
  Subscription,
  subscriptionUrl,
  toPublicSubscription,
} from './triggers/subscription.js';

export type { HandOff, TriggerEvent, TriggerEventHandler } from './triggers/trigger-event.js';
export {
  type CreateSubscriptionRequest,
  TriggerSubscriptions,
  type TriggerSubscriptionsOptions,
} from './triggers/trigger-subscriptions.js';
