import * as z from 'zod';

/**
 * What a token endpoint answers (RFC 6749 §5.1), checked before anything is
 * stored: a token is sent back in an `Authorization` header on every later
 * call, so one with a line break or a control character would break (or
 * inject into) every request of the connection. Providers add fields we ignore.
 */

/** RFC 6749 Appendix A.12/A.17: tokens are visible ASCII (VSCHAR, %x20-7E). */
const tokenText = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[\x20-\x7e]+$/, 'only visible ASCII characters (no line breaks or control characters)');

/** A token lifetime outside these bounds is clamped to them rather than refused. */
export const TOKEN_LIFETIME_BOUNDS_S = { min: 60, max: 365 * 24 * 3600 };

/**
 * `expires_in` as a number of seconds, clamped: 1800.0005 or 1e300 must not
 * fail after the provider has already spent the single-use refresh token.
 * Anything that is not a finite positive number counts as "not said".
 */
const lifetimeSeconds = z
  .unknown()
  .optional()
  .transform((value): number | undefined => {
    const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
    return Math.round(Math.min(Math.max(seconds, TOKEN_LIFETIME_BOUNDS_S.min), TOKEN_LIFETIME_BOUNDS_S.max));
  });

export const TokenResponse = z.object({
  access_token: tokenText,
  token_type: z.string().optional().catch(undefined),
  refresh_token: tokenText.optional(),
  expires_in: lifetimeSeconds,
  /** T's refresh-token lifetime (its token endpoint's table); providers that do not say leave it unknown. */
  refresh_token_expires_in: lifetimeSeconds,
  scope: z.string().max(4096).optional().catch(undefined),
});

/** A provider's token answer once validated and clamped: the only form a store ever receives. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms, a whole number (the connection schema stores integers). */
  expiresAt?: number;
  /** Epoch ms at which the refresh token ends, when the provider said (`refresh_token_expires_in`). */
  refreshExpiresAt?: number;
  scopes?: string[];
}

export type TokenAnswer =
  | { usable: true; tokens: TokenSet }
  /** `rotatedRefreshToken`: a well-formed refresh token came with the unusable answer, and must not be lost. */
  | { usable: false; problem: string; rotatedRefreshToken?: string };

/** Reads a 2xx token answer. Problems name fields only, never their values. */
export function readTokenAnswer(payload: unknown, now: number): TokenAnswer {
  const parsed = TokenResponse.safeParse(payload);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(body)'))];
    const rotated = tokenText.safeParse((payload as { refresh_token?: unknown } | null)?.refresh_token);
    const problem = `unusable ${fields.join(', ')}`;
    return rotated.success
      ? { usable: false, problem, rotatedRefreshToken: rotated.data }
      : { usable: false, problem };
  }
  const token = parsed.data;
  const tokens: TokenSet = { accessToken: token.access_token };
  if (token.refresh_token) tokens.refreshToken = token.refresh_token;
  if (token.expires_in !== undefined) tokens.expiresAt = Math.round(now) + token.expires_in * 1000;
  if (token.refresh_token && token.refresh_token_expires_in !== undefined) {
    tokens.refreshExpiresAt = Math.round(now) + token.refresh_token_expires_in * 1000;
  }
  const scopes = token.scope?.split(/[ ,]+/).filter(Boolean);
  if (scopes?.length) tokens.scopes = scopes;
  return { usable: true, tokens };
}
