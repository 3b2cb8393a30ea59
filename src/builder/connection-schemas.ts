import * as z from 'zod';
import { ConnectionHealthState } from '../model/connection-health.js';
import { RevocationReport } from '../model/revocation-report.js';
import { JsonSchemaDocument } from './api-schemas.js';

/** How a person connects an account of an integration from a builder page. */
export const ConnectFlow = z.enum(['redirect', 'popup', 'api_key']).meta({
  id: 'ConnectFlow',
  description: 'redirect: OAuth in the same tab; popup: OAuth in a pop-up window; api_key: a form.',
});

export const IntegrationView = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(['stable', 'beta']),
    /** Null when this server has no way configured to connect it. */
    connect: ConnectFlow.nullable(),
    /** The public fields a person fills in to connect (the server presets the rest). */
    fields: JsonSchemaDocument,
  })
  .meta({ id: 'IntegrationView' });
export const IntegrationsResponse = z
  .object({ integrations: z.array(IntegrationView) })
  .meta({ id: 'IntegrationsResponse' });

/** A connection as the builder shows it: public fields only, never a secret. */
export const ConnectionView = z
  .object({
    id: z.string(),
    integration: z.string(),
    label: z.string().nullable(),
    kind: z.enum(['oauth2', 'oauth2_no_refresh', 'api_key']),
    fields: z.record(z.string(), z.string()),
    expiresAt: z.string().nullable(),
    state: z.enum(['ok', 'expiring', 'expired']),
    /** The connection's health in the one vocabulary; the picker offers Reconnect on `needs_reconnect`. */
    health: z.object({
      state: ConnectionHealthState,
      checkedAt: z.string(),
      reason: z.string().nullable(),
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ConnectionView' });
export const ConnectionsQuery = z.object({ integration: z.string().max(64).optional() });
export const ConnectionsResponse = z
  .object({ connections: z.array(ConnectionView) })
  .meta({ id: 'ConnectionsResponse' });

export const StartConnectRequest = z
  .object({
    integration: z.string().min(1).max(64),
    /** The new connection's id; one is made from the integration when absent. A token limited to some integrations may not choose it. */
    id: z.string().max(64).optional(),
    label: z.string().max(200).optional(),
    /** Public fields the person filled in (subdomain, team...), checked against the integration's. */
    fields: z.record(z.string(), z.string()).default({}),
    /** api_key flow only: the key, stored and never answered back. */
    apiKey: z.string().min(1).max(4096).optional(),
    /** redirect flow: where the callback sends the browser back; must be an allowed origin's URL. */
    returnTo: z.url().optional(),
  })
  .meta({ id: 'StartConnectRequest' });

export const RenameRequest = z
  .object({
    /** The account's name as people will see it in the picker ("Support team", "ann@acme.test"). */
    label: z.string().trim().min(1).max(200),
  })
  .meta({ id: 'RenameRequest' });

export const ReconnectRequest = StartConnectRequest.pick({ apiKey: true, returnTo: true }).meta({
  id: 'ReconnectRequest',
});

/** An OAuth sign-in under way: open `authorizeUrl` (same tab or a pop-up), then watch the flow. */
export const PendingSignIn = z
  .object({
    flow: z.enum(['redirect', 'popup']),
    flowId: z.string(),
    authorizeUrl: z.url(),
    expiresAt: z.string(),
  })
  .meta({ id: 'PendingSignIn' });
export const StartConnectResponse = z
  .discriminatedUnion('flow', [
    PendingSignIn,
    z.object({ flow: z.literal('api_key'), connection: ConnectionView }),
  ])
  .meta({ id: 'StartConnectResponse' });

/** How a sign-in stands: the pop-up page and the redirect's return page both read it. */
export const FlowStatus = z
  .object({
    flowId: z.string(),
    state: z.enum(['pending', 'connected', 'failed', 'expired']),
    connection: ConnectionView.nullable(),
    /** Why it failed, in words that hold no secret. */
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'FlowStatus' });

export const ConnectionTestResponse = z
  .object({
    id: z.string(),
    integration: z.string(),
    /** true: the read worked; false: it did not; null: the provider has no free read to test with. */
    ok: z.boolean().nullable(),
    request: z.string().nullable(),
    says: z.string(),
    /** The error code when `ok` is false; `reauthorization_required` means: reconnect. */
    code: z.string().nullable(),
    /** Whom the credentials act for, where the provider's answer says (an email, a user or team name). */
    account: z.string().nullable(),
  })
  .meta({ id: 'ConnectionTestResponse' });

export const RemovedResponse = z
  .object({ id: z.string(), removed: z.literal(true) })
  .meta({ id: 'RemovedResponse' });

/**
 * A disconnect: the connection is gone from the store, and `revocation` says
 * what became of its grant at the provider (`pending`: it failed for now and
 * is retried; `gave_up`: the person should end it in the provider's settings).
 */
export const DisconnectedResponse = z
  .object({ id: z.string(), removed: z.literal(true), revocation: RevocationReport })
  .meta({ id: 'DisconnectedResponse' });
