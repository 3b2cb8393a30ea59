/**
 * The public API of toolsteps. Everything an embedder needs is listed here
 * explicitly; anything not exported is internal and may change.
 */

export { defineApiCallStep } from './api-call-step.js';
export { validateBaseUrl } from './base-url.js';
export { type Clock, ManualClock, systemClock } from './clock.js';
export {
  Connection,
  ConnectionKind,
  ConnectionSecrets,
  type PublicConnection,
  toPublicConnection,
} from './connection/connection.js';
export { parseConnectionFields, resolveBaseUrl } from './connection/connection-fields.js';
export type { ConnectionStore } from './connection/connection-store.js';
export { defaultToolstepsHome, FileConnectionStore } from './connection/file-store.js';
export { authorizeViaLoopback, followAuthorizeRedirects } from './connection/loopback-authorization.js';
export { MemoryConnectionStore } from './connection/memory-store.js';
export { buildAuthorizeUrl, exchangeCode, refreshTokens, type TokenSet } from './connection/oauth-client.js';
export { createPkcePair } from './connection/pkce.js';
export type { CoordinationStatus, Coordinator, HeldLock } from './coordination/coordinator.js';
export { LocalCoordinator } from './coordination/local-coordinator.js';
export {
  type CoordinationConfig,
  describeCoordination,
  openCoordinator,
} from './coordination/open-coordinator.js';
export { openRedisStores, type RedisStores } from './coordination/open-redis-stores.js';
export { RedisConnectionStore } from './coordination/redis-connection-store.js';
export { RedisSubscriptionStore } from './coordination/redis-subscription-store.js';
export { SecretBox } from './coordination/secret-box.js';
export { withLock } from './coordination/with-lock.js';
export {
  AbortedError,
  AuthError,
  CreditError,
  type CreditsSpent,
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
  type Sent,
  TimeoutError,
  ToolstepsError,
} from './errors.js';
export { closeSharedDispatcher, createDispatcher, type DispatcherOptions } from './http/agent.js';
export type { HttpClient, HttpRequest, HttpResponse } from './http/http-client.js';
export type { RateLimitSnapshot, RateLimitWindow } from './http/rate-limit.js';
export type { RetryOptions } from './http/retry-policy.js';
export {
  defineIntegration,
  type HttpMethod,
  type Integration,
  type IntegrationDefinition,
} from './integration.js';
export { type Logger, MemoryLogger, silentLogger } from './logger.js';
export { buildManifest, type Manifest, serializeManifest } from './manifest.js';
export { compileMapping, mapVariables, type VariableMapping } from './mapping.js';
export { Registry, type SearchHit, type TriggerSearchHit } from './registry.js';
export {
  type InvocationMeta,
  type InvocationResult,
  type InvokeOptions,
  Runtime,
  type RuntimeOptions,
} from './runtime.js';
export {
  type AnyStep,
  type CreditEstimate,
  type CreditRule,
  defineStep,
  type Step,
  type StepAccess,
  type StepContext,
  type StepDefinition,
} from './step.js';
export {
  type AnyTrigger,
  type Constraints,
  defineTrigger,
  type EventFacts,
  type ProvisionContext,
  type ProvisionResult,
  type RawDelivery,
  type RemoveContext,
  type SignatureScheme,
  type Trigger,
  type TriggerDefinition,
} from './trigger.js';
export type { ClaimOutcome, DedupeStore } from './triggers/dedupe-store.js';
export { type Entitlements, requireTriggerPlan, TRIGGERS_PLAN } from './triggers/entitlements.js';
export { toFetchHandler } from './triggers/fetch-handler.js';
export { FileDedupeStore } from './triggers/file-dedupe-store.js';
export { FileSubscriptionStore } from './triggers/file-subscription-store.js';
export {
  createIntake,
  type DeliveryContext,
  type Intake,
  type IntakeAnswer,
  type IntakeOptions,
  type IntakeRequest,
} from './triggers/intake.js';
export { IntakeRefusal, type RefusalCode } from './triggers/intake-refusal.js';
export { MemoryDedupeStore } from './triggers/memory-dedupe-store.js';
export { MemorySubscriptionStore } from './triggers/memory-subscription-store.js';
export { toNodeListener } from './triggers/node-listener.js';
export { DEFAULT_MAX_BODY_BYTES } from './triggers/read-body-within-limit.js';
export {
  type PublicSubscription,
  Subscription,
  subscriptionUrl,
  toPublicSubscription,
} from './triggers/subscription.js';
export type { SubscriptionStore } from './triggers/subscription-store.js';
export { timingSafeEqualText } from './triggers/timing-safe-equal.js';
export type { TriggerEvent, TriggerEventHandler } from './triggers/trigger-event.js';
export {
  type CreateSubscriptionRequest,
  TriggerSubscriptions,
  type TriggerSubscriptionsOptions,
} from './triggers/trigger-subscriptions.js';
