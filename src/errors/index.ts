/**
 * The error family. Every failure a caller can see is one of these: a string
 * `code` to branch on, `retryable` to tell an agent whether trying again can
 * help, `status` when a provider answered, and typed, read-only fields for
 * the rest (see `ToolstepsError`). One class per file under `errors/`.
 * Messages name the method and path but never carry a secret: every text
 * that reaches a caller passes through `redactSecrets` (or `error.redacted`).
 */

export { AbortedError } from './aborted-error.js';
export { AuthError } from './auth-error.js';
export { CreditError } from './credit-error.js';
export { EncryptionKeyError, type EncryptionKeyProblem } from './encryption-key-error.js';
// The fields every error carries, and the types that name them: all public.
export type * from './error-fields.js';
export { InputError } from './input-error.js';
export { NetworkError } from './network-error.js';
export { NotFoundError } from './not-found-error.js';
export { OutputError } from './output-error.js';
export { PermissionError } from './permission-error.js';
export { PlanError } from './plan-error.js';
export { ProviderError, type ProviderErrorCode } from './provider-error.js';
export { RateLimitError } from './rate-limit-error.js';
export {
  basicCredential,
  jsonMentionsSecret,
  mentionsSecret,
  REDACTED,
  redactDeep,
  redactForeignError,
  redactSecrets,
  redactThenCut,
  secretForms,
} from './redaction.js';
export { ResponseTooLargeError } from './response-too-large-error.js';
export { SchemaError, type SchemaProblem } from './schema-error.js';
export { StorageError } from './storage-error.js';
export { TamperedRecordError, type TamperedRecordProblem } from './tampered-record-error.js';
export { TenantLimitError, type TenantLimitName } from './tenant-limit-error.js';
export { TimeoutError } from './timeout-error.js';
export { TokenKeyError, type TokenKeyProblem } from './token-key-error.js';
export { isToolstepsError, ToolstepsError } from './toolsteps-error.js';
