import * as z from 'zod';
import { connectionIdPattern } from './connection-id.js';

export const connectionKinds = ['oauth2', 'oauth2_no_refresh', 'api_key'] as const;
export const ConnectionKind = z.enum(connectionKinds);
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
    scopes: z.array(z.string()).optional(),
    createdAt: z.number().int(),
    updatedAt: z.number().int(),
  })
  .strict();
export type Connection = z.infer<typeof Connection>;

/** The face of a connection that handlers, the CLI and logs may see. */
export type PublicConnection = Omit<Connection, 'secrets'> & { hasRefreshToken: boolean };

export function toPublicConnection(connection: Connection): PublicConnection {
  const { secrets, ...rest } = connection;
  return { ...rest, hasRefreshToken: Boolean(secrets.refreshToken) };
}

/** Every secret value of a connection, for redaction. */
export function secretValues(connection: Connection): string[] {
  return Object.values(connection.secrets).filter((value): value is string => typeof value === 'string');
}
