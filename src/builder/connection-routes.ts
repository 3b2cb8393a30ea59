import type * as z from 'zod';
import { InputError, NotFoundError, TimeoutError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { Integration } from '../model/define-integration.js';
import { removeConnection } from '../runtime/remove-connection.js';
import { runConnectionCheck } from '../runtime/run-connection-check.js';
import { noteCheck } from './account-check.js';
import type { ApiCall, RouteHandler } from './api-call.js';
import type { ConnectSetting } from './builder-options.js';
import { storeCheckedKey } from './checked-key.js';
import { connectDraft, draftConnection } from './connect-draft.js';
import type {
  ConnectionsQuery,
  ReconnectRequest,
  RenameRequest,
  StartConnectRequest,
} from './connection-schemas.js';
import { toConnectionView } from './connection-view.js';
import { flowCookie, flowCookieScope } from './flow-cookie.js';
import { callbackUrl } from './oauth-callback.js';
import { FLOW_TTL_MS } from './oauth-flows.js';
import { mayUseIntegration, requireConnection, requireWritable } from './tenant-guards.js';

/** The integration and how this server connects it; one it cannot connect is refused before anything else. */
function connectable(call: ApiCall, id: string): { integration: Integration; setting: ConnectSetting } {
  const integration = call.server.options.registry.integration(id);
  const setting = call.server.options.connect?.[id];
  if (!integration || !mayUseIntegration(call, id)) {
    throw new InputError(`Unknown integration "${id}".`, [
      { path: 'integration', message: 'unknown integration' },
    ]);
  }
  if (!setting || (setting.flow !== 'api_key' && !integration.connection.oauth)) {
    throw new InputError(`${integration.title} cannot be connected from this server.`, [
      { path: 'integration', message: 'no way to connect it is configured' },
    ]);
  }
  return { integration, setting };
}

/** A `returnTo` on another origin would hand the flow's outcome to a page the server does not trust. */
function checkReturnTo(call: ApiCall, returnTo: string | undefined): void {
  if (returnTo !== undefined && !call.server.origins().allows(new URL(returnTo).origin)) {
    throw new InputError('returnTo must be on an allowed origin.', [
      { path: 'returnTo', message: 'origin not allowed' },
    ]);
  }
}

type StartRequest = z.output<typeof StartConnectRequest>;

/** How often a made id may land on one the tenant holds before the request gives up (32 random bits each time). */
const MADE_ID_TRIES = 5;

/**
 * The draft of a new connection, its id free in the tenant. A token limited
 * to some integrations does not choose the id: "already exists" for an id
 * held by a connection it cannot see would tell it that id, and a free id
 * succeeding is the other half of the same answer. So a chosen id is refused
 * with one answer whatever the tenant holds, and the server makes the id; a
 * made id that lands on a held one is made again, and a held connection is
 * never overwritten. A token that sees every integration chooses ids, and
 * hears of one that is taken.
 */
async function newDraft(
  call: ApiCall,
  { integration, setting }: { integration: Integration; setting: ConnectSetting },
  request: StartRequest,
) {
  if (request.id !== undefined && call.claims.integrations) {
    throw new InputError(
      'A token limited to some integrations does not choose a connection id: leave id out.',
      [{ path: 'id', message: 'made by the server for this token' }],
    );
  }
  for (let tries = 0; tries < MADE_ID_TRIES; tries += 1) {
    const draft = connectDraft(integration, setting, request);
    if (!(await call.tenant.stores.connections.get(draft.id))) return draft;
    if (request.id !== undefined) {
      throw new InputError(`A connection "${draft.id}" already exists; reconnect it instead.`, [
        { path: 'id', message: 'already exists' },
      ]);
    }
  }
  // 5 made ids in a row all held: the tenant holds billions, or something is wrong; not worth more tries.
  throw new TimeoutError('No free connection id was found; try again.', { retryable: true });
}

/** Starts a sign-in, or stores an API key at once; `existing` keeps a reconnected connection's id and age. */
async function begin(call: ApiCall, request: StartRequest, existing?: Connection) {
  const { integration, setting } = connectable(call, request.integration);
  checkReturnTo(call, request.returnTo);
  const draft = existing
    ? connectDraft(integration, setting, request)
    : await newDraft(call, { integration, setting }, request);
  const now = call.server.now();
  if (setting.flow === 'api_key') {
    if (!request.apiKey)
      throw new InputError('Enter the API key.', [{ path: 'apiKey', message: 'required' }]);
    const connection = draftConnection(integration, draft, { apiKey: request.apiKey }, now, {
      createdAt: existing?.createdAt,
    });
    return { flow: 'api_key', connection: await storeCheckedKey(call, integration, connection, existing) };
  }
  if (request.apiKey)
    throw new InputError(`${integration.title} connects by signing in, not with a key.`, [
      { path: 'apiKey', message: 'not used' },
    ]);
  const redirectUri = callbackUrl(call.server);
  const started = call.server.flows.start({
    tenant: call.tenant.tenant,
    integration,
    setting,
    draft,
    createdAt: existing?.createdAt,
    kind: setting.flow,
    origin: call.origin,
    caller: call.claims.tokenId,
    returnTo: request.returnTo,
    redirectUri,
  });
  // Only the browser that holds this cookie may finish the sign-in (flow-cookie.ts says why).
  call.reply.header(
    'set-cookie',
    flowCookie(started.flowId, started.browserKey, flowCookieScope(redirectUri, FLOW_TTL_MS)),
  );
  return {
    flow: setting.flow,
    flowId: started.flowId,
    authorizeUrl: started.authorizeUrl,
    expiresAt: new Date(started.expiresAt).toISOString(),
  };
}

const listConnections: RouteHandler = async (call) => {
  const { integration } = call.query as z.output<typeof ConnectionsQuery>;
  const { registry } = call.server.options;
  const all = await call.tenant.stores.connections.list();
  const shown = all.filter(
    (connection) =>
      mayUseIntegration(call, connection.integration) &&
      (!integration || connection.integration === integration),
  );
  const now = call.server.now();
  return {
    connections: shown.map((connection) =>
      toConnectionView(connection, registry.integration(connection.integration), now),
    ),
  };
};

const startConnection: RouteHandler = async (call) => {
  requireWritable(call);
  return begin(call, call.body as StartRequest);
};

const reconnectConnection: RouteHandler = async (call) => {
  requireWritable(call);
  const connection = await requireConnection(call, call.params.connectionId!);
  const request = call.body as z.output<typeof ReconnectRequest>;
  const { clientId: _clientId, baseUrl: _baseUrl, ...fields } = connection.fields;
  return begin(
    call,
    { integration: connection.integration, id: connection.id, label: connection.label, fields, ...request },
    connection,
  );
};

const connectFlowStatus: RouteHandler = async (call) => {
  const flow = call.server.flows.status(call.tenant.tenant, call.params.flowId!);
  return { flowId: flow.flowId, state: flow.state, connection: flow.connection, error: flow.error };
};

const testConnection: RouteHandler = async (call) => {
  const connection = await requireConnection(call, call.params.connectionId!);
  const integration = call.server.options.registry.integration(connection.integration);
  if (!integration) throw new NotFoundError(`Integration "${connection.integration}" is not served here.`);
  const report = await runConnectionCheck(
    call.tenant.runtime,
    integration,
    connection.id,
    call.claims.tokenId,
  );
  await noteCheck(call.tenant.stores.connections, connection.id, report, call.server.now());
  const { account = null, ...rest } = report;
  return { id: connection.id, integration: integration.id, ...rest, account };
};

/** A person's own name for an account, so two accounts of one provider read apart. */
const renameConnection: RouteHandler = async (call) => {
  requireWritable(call);
  const connection = await requireConnection(call, call.params.connectionId!);
  const { label } = call.body as z.output<typeof RenameRequest>;
  const entry = { action: 'connection.store' as const, target: connection.id, caller: call.claims.tokenId };
  const renamed = await call.tenant.runtime.recordWrite(
    { ...entry, integration: connection.integration },
    () =>
      call.tenant.stores.connections.update(connection.id, (current) => ({
        ...current,
        label,
        updatedAt: call.server.now(),
      })),
  );
  return toConnectionView(
    renamed,
    call.server.options.registry.integration(renamed.integration),
    call.server.now(),
  );
};

/** Removes the connection at once, then revokes its grant at the provider; a failed revocation waits among the pending ones. */
const disconnectConnection: RouteHandler = async (call) => {
  requireWritable(call);
  const connection = await requireConnection(call, call.params.connectionId!);
  const { revocation } = await removeConnection(call.tenant.runtime, connection.id, {
    integration: (id) => call.server.options.registry.integration(id),
    pendingRevocations: call.server.options.tenants,
    caller: call.claims.tokenId,
  });
  return { id: connection.id, removed: true, revocation };
};

export const connectionRoutes = {
  listConnections,
  startConnection,
  reconnectConnection,
  connectFlowStatus,
  testConnection,
  renameConnection,
  disconnectConnection,
};
