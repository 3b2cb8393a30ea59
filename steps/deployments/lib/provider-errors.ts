import * as z from 'zod';
import {
  AuthError,
  builtOnce,
  definedOnly,
  type ParsedProviderError,
  PlanError,
  type ProviderFailure,
} from '../../../src/kit/index.js';

/** The error body of every endpoint: `{"error": {"code", "message", ...}}`. */
const DeploymentsErrorBody = builtOnce(() =>
  z.object({
    error: z
      .object({
        code: z.string().optional(),
        message: z.string().optional(),
        invalidToken: z.boolean().optional(),
      })
      .loose(),
  }),
);

/** Reads `{"error": {"code", "message"}}`; a text body is kept short. */
export function parseDeploymentsError(body: unknown): ParsedProviderError {
  if (typeof body === 'string') {
    const text = body.trim().slice(0, 300);
    return text ? { message: text } : {};
  }
  const parsed = DeploymentsErrorBody().safeParse(body);
  if (!parsed.success) return {};
  return definedOnly({
    message: parsed.data.error.message?.trim() || undefined,
    providerCode: parsed.data.error.code || undefined,
  });
}

/** A revoked token (403 with `invalidToken`) and a plan that lacks a feature (402): the provider's own meanings. */
export function classifyDeploymentsError(failure: ProviderFailure, parsed: ParsedProviderError) {
  const where = `${failure.method} ${failure.path}`;
  const known = {
    sent: true,
    providerCode: parsed.providerCode,
    providerMessage: parsed.message,
    context: { method: failure.method, path: failure.path },
  };
  // A revoked or unknown token is answered 403 `forbidden` with `invalidToken: true`, not 401:
  // it needs a new sign-in, unlike a 403 for a team or project the account may not touch.
  const invalidToken = DeploymentsErrorBody().safeParse(failure.body).data?.error.invalidToken === true;
  if (failure.status === 403 && invalidToken) {
    return new AuthError(
      `${where} was refused: the token is not valid. Reconnect (toolsteps connect deployments).`,
      { ...known, status: 403, reauthorize: true },
    );
  }
  // 402 here means the plan does not include the feature, not spent credits.
  if (failure.status === 402) {
    return new PlanError(
      `${where} needs a higher provider plan${parsed.message ? `: ${parsed.message}` : ''}.`,
      {
        ...known,
        status: 402,
      },
    );
  }
  return undefined;
}
