/**
 * The kit for step authors: everything an integration, a step or a trigger
 * needs, and nothing deeper. Every file under `steps/` imports from here and
 * from packages only (a house-rules test holds it), so an outside author
 * writes an integration against the same surface as ours, and a refactor
 * inside `src/` that keeps this surface breaks no integration.
 *
 * Published as `toolsteps/kit`. See docs/writing-an-integration.md.
 *
 * @module toolsteps/kit
 */

// The registry an integration package builds from its integrations, typed by what it holds.
export { Registry, type SearchHit, type StepsOf, type TriggerSearchHit } from '../catalog/registry.js';
// The types of its methods typed by what it holds (InvokeId, InvokeInput, LookupId, OptionFieldOf...).
export type * from '../catalog/typed-lookups.js';
// The classes the family's members extend, named by their declarations.
export type { FieldIssuesError } from '../errors/field-issues-error.js';
// The error family: a step throws these, never a bare Error.
export {
  AuthError,
  CreditError,
  type CreditRange,
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
  type ProviderErrorCode,
  RateLimitError,
  type Sent,
  TimeoutError,
  ToolstepsError,
} from '../errors/index.js';
export type { TransportError } from '../errors/transport-error.js';
// Talking to the provider: the bound HTTP client, path segments, quota headers.
export type { FetchFile } from '../http/fetch-file.js';
export type { HttpClient, HttpRequest, HttpResponse } from '../http/http-client.js';
export { NumericId, PathSegment, routedPath } from '../http/request-guards.js';
export type { VariableMapping } from '../mapping/mapping.js';
// A trigger's earlier major, served through a migration of the payload (docs/writing-an-integration.md#versions).
export type { PathMap } from '../mapping/path-map.js';
// Defining integrations, steps and triggers.
export type { Connection, ConnectionKind, PublicConnection } from '../model/connection.js';
export {
  type AuthContext,
  type ConnectionCheck,
  defineIntegration,
  type GrantRevocation,
  type HttpMethod,
  type Integration,
  type IntegrationDefinition,
  type OAuthSettings,
  type ParsedProviderError,
  type ProviderFailure,
} from '../model/define-integration.js';
export type { KnownId } from '../model/known-id.js';
export type { Logger } from '../model/logger.js';
export {
  intHeader,
  type QuotaHeaders,
  type QuotaResetFormat,
  type RateLimitSnapshot,
  type RateLimitWindow,
  readQuotaHeaders,
} from '../model/rate-limit.js';
// Write safety for bulk writes.
export { safeToResend, writeOutcome } from '../model/write-outcome.js';
export type { DescribedInput, OptionsMark } from '../options/described-input.js';
export type { OptionsAnswer, OptionsCall } from '../options/resolve-options.js';
export type { InvocationMeta } from '../runtime/invocation.js';
export type { InvocationResult, InvokeOptions, Runtime } from '../runtime/runtime.js';
export type { ReplayDecision } from '../runtime/settle-replays.js';
export type { SharedCreditBudget } from '../runtime/shared-credit-budget.js';
// Options (choices from the account or a closed list) and per-account input fields.
export type {
  AccountField,
  AccountSchemaSource,
  AccountValue,
} from '../step/account-fields.js';
export type { ApiCallInput, ApiCallOptions, ApiCallPathField } from '../step/api-call-input.js';
export { defineApiCallStep } from '../step/api-call-step.js';
// The output shape every paged list step shares.
export { cursorPageOutput } from '../step/cursor-page.js';
export {
  type AnyStep,
  type CheckHint,
  type CreditEstimate,
  type CreditRule,
  defineStep,
  type GoneMeansDoneReplay,
  type OnReplay,
  type ProgressRecords,
  type ReconcileReplay,
  type RefuseReplay,
  type ReplayDeclaration,
  type Step,
  type StepAccess,
  type StepContext,
  type StepDefinition,
  type StepExample,
  type StepId,
  type WriteSafetyDeclaration,
} from '../step/define-step.js';
// Versions: an earlier major served through a migration to the current one (docs/writing-an-integration.md#versions).
export {
  type AnyEarlierMajor,
  type EarlierExample,
  type EarlierMajor,
  type EarlierMajorDefinition,
  earlierMajor,
  type LatestSchemas,
  type StepVersions,
} from '../step/earlier-major.js';
export {
  fixedOptions,
  MAX_OPTION_ITEMS,
  matchingItems,
  OPTIONS_CACHE_TTL_MS,
  type OptionItem,
  type OptionsContext,
  type OptionsPage,
  type OptionsRequest,
  type OptionsSource,
  type StepOptions,
  wordOptions,
} from '../step/options-source.js';
// Reading a provider answer through its schema: an OutputError naming the fields, never a crash further on.
export { type AnswerPart, readAnswer } from '../step/read-answer.js';
// What a definition's functions return for a schema: literals kept without `as const`.
export type { ReturnedValue } from '../step/returned-value.js';
export type { OptionField, StepInput, StepOutput, StepWithId } from '../step/step-lookups.js';
export type { Deprecation, VersionString } from '../step/step-version.js';
// A step that narrows another: its properties without reading its schemas.
export { withoutSchemas } from '../step/without-schemas.js';
export {
  type AnyTrigger,
  type Constraints,
  defineTrigger,
  type EventFacts,
  type EventTimeSource,
  type ProviderContext,
  type ProvisionContext,
  type ProvisionResult,
  type RawDelivery,
  type RemoveContext,
  type SignatureScheme,
  type TestDeliveryResult,
  type Trigger,
  type TriggerDefinition,
  type TriggerId,
  type WebhookAdmin,
  type WebhookContext,
  type WebhookStatus,
} from '../triggers/define-trigger.js';
export { deleteIfPresent } from '../triggers/delete-if-present.js';
export {
  type EarlierTriggerMajor,
  type EarlierTriggerMajorDefinition,
  earlierTriggerMajor,
} from '../triggers/earlier-trigger-major.js';
export type { ListedWebhook, RemovalOutcome, RemovedItem } from '../triggers/provider-webhook.js';
export type { TriggerWithId } from '../triggers/trigger-lookups.js';
// Small value helpers.
export { builtOnce } from '../values/built-once.js';
export { type DefinedOnly, definedOnly } from '../values/defined-only.js';
export { timingSafeEqualText } from '../values/timing-safe-equal.js';
