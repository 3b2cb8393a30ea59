import type * as z from 'zod';
import type { ToolstepsError } from '../errors/index.js';
import type { Connection, ConnectionKind } from './connection.js';
import type { RateLimitSnapshot } from './rate-limit.js';

/** The methods a provider request may use; an integration's API Call step narrows them further. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** How an integration signs users in with OAuth: where, how the token endpoint is spoken to, and when to refresh. */
export interface OAuthSettings {
  /** Where the user signs in and allows access, from the connection's effective base URL. */
  authorizeUrl(baseUrl: string): string;
  /** Where codes and refresh tokens are exchanged. */
  tokenUrl(baseUrl: string): string;
  /** Where refresh tokens are exchanged, when that is not `tokenUrl`. */
  refreshUrl?(baseUrl: string): string;
  /** The provider's token endpoint takes JSON (T) or form encoding (D). */
  tokenRequestEncoding: 'json' | 'form';
  /**
   * Whether connections with a refresh token are refreshed (the provider may
   * rotate it on use). Connections holding only a long-lived token are not.
   */
  refreshes: boolean;
  defaultScopes: readonly string[];
  /**
   * When the provider lets the client choose how long a refresh token lives
   * (T: `refresh_token_expires_in`, 7 to 90 days, 30 when not asked): the
   * token request's field and its bounds in seconds. A lifetime an embedder
   * configures for the integration is clamped to them and sent on connect
   * and on every refresh.
   */
  refreshTokenLifetime?: { parameter: string; minS: number; maxS: number; defaultS: number };
  /** Separator between scopes in the authorize URL. */
  scopeSeparator?: string;
}

/**
 * How a removed connection's grant is given back to its provider, where the
 * provider has a way (`connection.revocation`):
 * - `bearer_delete`: DELETE to `url` with the access token as bearer (T's
 *   RevokeOAuthToken on `current`: the token and the refresh token issued
 *   with it stop working). An access token past its end is first renewed
 *   with the refresh token, which (rotation) kills the old pair, and the
 *   new one is revoked.
 * - `rfc7009`: POST a form with `token` (the refresh token, then the access
 *   token) and the client's credentials to a revocation endpoint (RFC 7009,
 *   D's apps).
 */
export interface GrantRevocation {
  kind: 'bearer_delete' | 'rfc7009';
  /** The revocation endpoint, from the connection's effective base URL. */
  url(baseUrl: string): string;
  /**
   * When only grants with a refresh token are known to the endpoint (D: an
   * app's tokens, not an integration's long-lived one): why a connection
   * without one cannot be revoked here, said to the person removing it.
   */
  withoutRefreshToken?: string;
}

/** What the transport hands an integration to classify a failed response. */
export interface ProviderFailure {
  status: number;
  headers: Headers;
  body: unknown;
  method: string;
  path: string;
  /** The operation the request named (`HttpRequest.operation`), so a classifier need not guess it from the path. */
  operation?: string | undefined;
}

/** What an integration reads out of a provider's error body, so the error a caller sees quotes the provider rather than a status code. */
export interface ParsedProviderError {
  /** The provider's own message, already free of secrets. */
  message?: string;
  /** The provider's own error code (`RecordInvalid`, `not_found`, ...). */
  providerCode?: string;
  /** Field-level complaints, when the provider names fields. */
  fields?: { path: string; message: string }[];
}

/** What an integration's `authHeaders` is given: the connection whose credentials it turns into request headers. */
export interface AuthContext {
  connection: Connection;
  /** An integration-defined variant, for APIs whose header shape depends on the operation. */
  variant?: string;
}

/**
 * The cheapest authenticated read of a provider: a GET that is free and
 * changes nothing, for `connections test`. `describe` reads the answer
 * (untrusted) into a short text: who or what answered (an account, a plan),
 * and `ok: false` when a 2xx still says the credentials were not used (a
 * provider that answers anonymous callers too).
 */
export interface ConnectionCheck {
  path: string;
  /**
   * Reads the check's answer into one line for `connections test`, and,
   * where the answer names whom the credentials act for (an email, a user
   * or team name), that as `account`: a builder labels the connection with
   * it so a person can tell two accounts of one provider apart. Undefined
   * when the body says nothing useful.
   */
  describe?(body: unknown): { ok: boolean; says: string; account?: string } | undefined;
}

/**
 * Everything a provider's integration states once, so its steps stay small:
 * how connections authenticate and build their base URL, how errors and
 * rate-limit headers read, and every path it calls.
 */
export interface IntegrationDefinition<Fields extends z.ZodObject = z.ZodObject, Id extends string = string> {
  /** snake_case; every step id of the integration starts with it (`<id>.<verb_noun>`), checked by the type of `defineStep`. */
  id: Id;
  title: string;
  description: string;
  keywords: readonly string[];
  /** Beta integrations say so in the manifest and in search results. */
  status?: 'stable' | 'beta';
  connection: {
    kind: ConnectionKind;
    /** Public connection settings (subdomain, team id, region...), each `.describe()`d. */
    fields: Fields;
    /** Secrets the connection must hold to be usable. */
    requiredSecrets: readonly ('accessToken' | 'apiKey')[];
    oauth?: OAuthSettings;
    /**
     * How a removed connection's grant is revoked at the provider, or, when
     * the provider has no way (an API key is revoked by a person in the
     * provider's dashboard), why not (`unavailable`), so removing it says so.
     */
    revocation?: GrantRevocation | { unavailable: string };
  };
  /** The provider host for a connection's validated fields; a `baseUrl` override replaces it. */
  baseUrl(fields: z.infer<Fields>): string;
  /** Credential headers for one request. */
  authHeaders(context: AuthContext): Record<string, string>;
  /** Headers that carry credentials, so API Call steps refuse them as custom headers. */
  credentialHeaders?: readonly string[];
  defaultHeaders?: Record<string, string>;
  /** Query parameters every request carries (D: `teamId`). */
  defaultQuery?(fields: z.infer<Fields>): Record<string, string | undefined>;
  /** Reads the provider's remaining-quota headers, so the rate gate waits before the provider refuses. */
  readRateLimit?(headers: Headers, now: number): RateLimitSnapshot | undefined;
  /**
   * What to check after an authentication error, in the order the provider's
   * documentation gives; added to every AuthError of the integration that has no hint.
   */
  authHint?: string;
  /** Reads the provider's error body. */
  parseError?(body: unknown): ParsedProviderError;
  /** Overrides the status-based classification for provider-specific cases. */
  classifyError?(failure: ProviderFailure, parsed: ParsedProviderError): ToolstepsError | undefined;
  apiCall: { methods: readonly HttpMethod[] };
  /**
   * The constraints (limits an embedder sets per invocation or subscription)
   * its steps and triggers enforce, each with what it limits. Any other key is
   * refused as input rather than silently ignored.
   */
  constraints?: Readonly<Record<string, string>>;
  /**
   * How `connections test` checks a connection: the cheapest authenticated
   * read, or, when the provider has no free read, why not (`unavailable`).
   */
  connectionCheck?: ConnectionCheck | { unavailable: string };
  /** Every provider path the integration uses, in one table, so it can be re-pointed. */
  paths: Readonly<Record<string, string>>;
}

/** A defined integration, frozen: steps compare it by identity, so one defined twice cannot be mixed up. */
export type Integration<Fields extends z.ZodObject = z.ZodObject, Id extends string = string> = Readonly<
  IntegrationDefinition<Fields, Id>
>;

/** Keeps the literal id (`'ticketing'`, not `string`), so step ids can be checked against it. */
export function defineIntegration<Fields extends z.ZodObject, const Id extends string>(
  definition: IntegrationDefinition<Fields, Id>,
): Integration<Fields, Id> {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.id)) {
    throw new Error(`Integration id "${definition.id}" must be snake_case.`);
  }
  return Object.freeze(definition);
}
