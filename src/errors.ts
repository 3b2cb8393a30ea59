/**
 * The error family. Every failure a caller can see is one of these: a string
 * `code` to branch on, `retryable` to tell an agent whether trying again can
 * help, `status` when a provider answered, and typed, read-only fields for
 * the rest (see `ToolstepsError`). One class per file under `errors/`.
 * Messages name the method and path but never carry a secret: every text
 * that reaches a caller passes through `redactSecrets` (or `error.redacted`).
 */

export { AbortedError } from './errors/aborted-error.js';
export { AuthError } from './errors/auth-error.js';
export { CreditError } from './errors/credit-error.js';
export { EncryptionKeyError, type EncryptionKeyProblem } from './errors/encryption-key-error.js';
export type {
  CreditRange,
  CreditsSpent,
  ErrorCode,
  ErrorInit,
  ErrorJson,
  FieldIssue,
  Outcome,
  Sent,
} from './errors/error-fields.js';
export { InputError } from './errors/input-error.js';
export { NetworkError } from './errors/network-error.js';
export { NotFoundError } from './errors/not-found-error.js';
export { OutputError } from './errors/output-error.js';
export { PermissionError } from './errors/permission-error.js';
export { PlanError } from './errors/plan-error.js';
export { ProviderError, type ProviderErrorCode } from './errors/provider-error.js';
export { RateLimitError } from './errors/rate-limit-error.js';
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
} from './errors/redaction.js';
export { ResponseTooLargeError } from './errors/response-too-large-error.js';
export { TimeoutError } from './errors/timeout-error.js';
export { isToolstepsError, ToolstepsError } from './errors/toolsteps-error.js';
