import * as z from 'zod';
import { ConnectionHealth, RefreshOutcome } from './connection-health.js';
import { connectionIdPattern } from './connection-id.js';

export const connectionKinds = ['oauth2', 'oauth2_no_refresh', 'api_key'] as const;
/** How a connection authenticates, which decides whether the runtime can refresh it or must ask the user to reconnect. */
export const ConnectionKind = z.enum(connectionKinds);
/** One of `oauth2` (refreshable), `oauth2_no_refresh` (reconnect when it expires) and `api_key`. */
export type ConnectionKind = z.infer<typeof ConnectionKind>;

/** What only the connection store may hold. Never in output, errors, logs or the manifest. */
export const ConnectionSecrets = z
  .object({
    accessToken: z.string().min(1).optional(),
    refreshToken: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
  })
  .strict();
export type ConnectionSecrets = z.infer<typeof ConnectionSecrets>;

export { connectionIdPattern };

/**
 * A stored connection, validated on every read so a hand-edited or
 * tampered file cannot reach a step; the schema is the one source of the
 * `Connection` type.
 */
export const Connection = z
  .object({
    id: z.string().regex(connectionIdPattern, 'letters, digits, _ and -, up to 64 characters'),
    integration: z.string().min(1),
    label: z.string().max(200).optional(),
    kind: ConnectionKind,
    /** Public, integration-specific settings: subdomain, baseUrl, teamId, region, projectId, clientId. */
    fields: z.record(z.string(), z.string()),
    secrets: ConnectionSecrets,
    /** Epoch ms at which the access token stops working; absent for long-lived tokens and keys. */
    expiresAt: z.number().int().optional(),
    /**
     * Epoch ms at which the refresh token stops working (`refresh_token_expires_in`);
     * absent when the provider did not say, and on connections saved before it was kept.
     */
    refreshExpiresAt: z.number().int().optional(),
    /** Epoch ms of the last call that worked with this connection (recorded at most once an hour). */
    lastUsedAt: z.number().int().optional(),
    /** The last token refresh and how it ended. */
    lastRefresh: RefreshOutcome.optional(),
    /**
     * The state last recorded (keep-alive, a refused refresh, a check): what
     * a change into `needs_reconnect` or `expiring` is told against. Writing
     * it leaves `updatedAt` alone, which measures the credentials' age.
     */
    health: ConnectionHealth.optional(),
    scopes: z.array(z.string()).optional(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .strict();
/** One account of one integration, secrets included: only stores and the runtime's binding see this whole. */
export type Connection = z.infer<typeof Connection>;

/** The face of a connection that handlers, the CLI and logs may see. */
export type PublicConnection = Omit<Connection, 'secrets'> & { hasRefreshToken: boolean };

/** Drops the secrets, keeping whether a refresh token exists, so a listing can say a connection will renew itself. */
export function toPublicConnection(connection: Connection): PublicConnection {
  const { secrets, ...rest } = connection;
  return { ...rest, hasRefreshToken: Boolean(secrets.refreshToken) };
}

/** Every secret value of a connection, for redaction. */
export function secretValues(connection: Connection): string[] {
  return Object.values(connection.secrets).filter((value): value is string => typeof value === 'string');
}
