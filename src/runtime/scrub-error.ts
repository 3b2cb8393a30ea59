import { type CreditsSpent, isToolstepsError, redactForeignError } from '../errors/index.js';

/**
 * A copy of whatever was thrown with every secret of the connection redacted,
 * and what the invocation spent attached: the last thing done to an error
 * before it leaves the runtime.
 */
export function scrubError(error: unknown, secrets: string[], credits?: CreditsSpent): unknown {
  if (isToolstepsError(error)) return error.redacted(secrets).withCredits(credits);
  return redactForeignError(error, secrets);
}
