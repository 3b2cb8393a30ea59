import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../model/clock.js';
import type { TenantId } from '../model/tenant-id.js';
import { BUILDER_SCOPE, type BuilderPrincipal, type TokenVerifier } from './token-verifier.js';

/** Tokens kept at once; the oldest goes first, so minting in a loop cannot grow the process. */
const MAX_TOKENS = 10_000;

/**
 * Short-lived opaque tokens known only to this process: what `toolsteps ui`
 * hands its own page. Random (32 bytes), looked up rather than signed, so
 * there is no key to keep; they die with the process. An embedder's server
 * uses the tenants' signed scoped tokens instead.
 */
export class SessionTokens implements TokenVerifier {
  private readonly tokens = new Map<string, BuilderPrincipal>();

  constructor(private readonly clock: Clock = systemClock) {}

  mint(
    tenant: TenantId,
    options: {
      ttlMs: number;
      scopes?: readonly string[];
      readOnly?: boolean;
      /** The integrations the session may use; all when absent. */
      integrations?: readonly string[];
    },
  ): string {
    const bearer = `tsb_${randomBytes(32).toString('base64url')}`;
    if (this.tokens.size >= MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(bearer, {
      tokenId: `session_${randomBytes(6).toString('hex')}`,
      tenant,
      scopes: options.scopes ?? [BUILDER_SCOPE],
      readOnly: options.readOnly ?? false,
      ...(options.integrations ? { integrations: [...options.integrations] } : {}),
      expiresAt: new Date(this.clock.now() + options.ttlMs),
    });
    return bearer;
  }

  verifyToken(bearer: string): BuilderPrincipal | undefined {
    const claims = this.tokens.get(bearer);
    if (!claims) return undefined;
    if (claims.expiresAt.getTime() <= this.clock.now()) {
      this.tokens.delete(bearer);
      return undefined;
    }
    return claims;
  }

  revoke(bearer: string): void {
    this.tokens.delete(bearer);
  }
}
