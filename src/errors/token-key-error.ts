import type { ErrorInit } from './error-fields.js';
import { ProblemError } from './problem-error.js';

/**
 * Why the key that signs scoped tokens cannot be used; `malformed`: a key list that cannot be read (an entry without an id, an id twice, both variables set).
 */
export type TokenKeyProblem = 'missing' | 'too_short' | 'malformed';

/**
 * The server key that signs and checks scoped tokens
 * (`TOOLSTEPS_TOKEN_KEY`, `TOOLSTEPS_TOKEN_KEYS`) is missing, malformed or
 * too short to resist guessing.
 * Found before any token is signed or checked; never retryable with the
 * same key; the message never holds key material.
 */
export class TokenKeyError extends ProblemError<TokenKeyProblem> {
  override readonly name = 'TokenKeyError' as const;
  constructor(message: string, problem: TokenKeyProblem, init: ErrorInit = {}) {
    super('token_key_invalid', message, problem, init);
  }
}
