import type { ErrorInit } from './error-fields.js';
import { ProblemError } from './problem-error.js';

/** Why stored secrets cannot be sealed or opened. */
export type EncryptionKeyProblem = 'missing' | 'malformed' | 'wrong';

/**
 * The key that encrypts shared secrets (`TOOLSTEPS_ENCRYPTION_KEY`) is
 * missing, malformed, or not the one a value was sealed with. Never a
 * silent empty secret; never retryable with the same key. `context.problem`
 * says which; the message never holds key material.
 */
export class EncryptionKeyError extends ProblemError<EncryptionKeyProblem> {
  override readonly name = 'EncryptionKeyError' as const;
  constructor(message: string, problem: EncryptionKeyProblem, init: ErrorInit = {}) {
    super('encryption_key_invalid', message, problem, init);
  }
}
