import { randomBytes } from 'node:crypto';
import { buildAuthorizeUrl, exchangeCode } from '../connection/oauth-client.js';
import { createPkcePair, randomState } from '../connection/pkce.js';
import { InputError, isToolstepsError, NotFoundError } from '../errors/index.js';
import type { Integration } from '../step/define-integration.js';
import type { TenantId } from '../tenants/tenant-id.js';
import { definedOnly } from '../values/defined-only.js';
import type { ConnectSetting } from './builder-options.js';
import { type ConnectDraft, draftConnection } from './connect-draft.js';
import { toConnectionView } from './connection-view.js';
import type { TenantContext } from './tenant-contexts.js';

/** How long a person has to finish a sign-in; the state and verifier are forgotten after. */
export const FLOW_TTL_MS = 10 * 60_000;
/** The longest the token endpoint may take to answer the code exchange. */
const EXCHANGE_TIMEOUT_MS = 30_000;
/** Sign-ins kept at once, pending or finished; the oldest go first. */
const MAX_FLOWS = 10_000;
/**
 * Sign-ins one tenant may have pending at once: a person starts a few, and a
 * tenant that starts thousands is held to its own limit instead of using
 * up the server's room and blocking every other tenant's sign-ins.
 */
export const MAX_PENDING_PER_TENANT = 50;

export type FlowState = 'pending' | 'connected' | 'failed' | 'expired';

/** One sign-in: what only the server holds (state, PKCE verifier), and how it ended. */
export interface SignInFlow {
  flowId: string;
  tenant: TenantId;
  integration: Integration;
  setting: ConnectSetting;
  draft: ConnectDraft;
  /** Set on a reconnect: the connection keeps its id and creation time. */
  createdAt: number | undefined;
  kind: 'redirect' | 'popup';
  /** The allowed origin of the page that started it: the only one the pop-up reports to. */
  origin: string | undefined;
  /** The token or session id that started it: the stored connection's audit record names it. */
  caller: string;
  returnTo: string | undefined;
  redirectUri: string;
  expiresAt: number;
  state: FlowState;
  connection: ReturnType<typeof toConnectionView> | null;
  error: { code: string; message: string } | null;
}

/**
 * The OAuth sign-ins under way. The browser carries only the state; the
 * PKCE verifier, the client secret and the tokens never leave the server.
 * A state is used once, lives `FLOW_TTL_MS`, and its callback stores the
 * connection in the view of the tenant that started the flow, whatever
 * token (or none) the browser holds when it comes back.
 */
export class OAuthFlows {
  private readonly flows = new Map<string, SignInFlow>();
  private readonly secrets = new Map<string, { flowId: string; verifier: string }>();

  constructor(private readonly now: () => number) {}

  start(flow: Omit<SignInFlow, 'flowId' | 'expiresAt' | 'state' | 'connection' | 'error'>): {
    flowId: string;
    authorizeUrl: string;
    expiresAt: number;
  } {
    this.prune();
    this.refusePastTenantLimit(flow.tenant);
    const pkce = createPkcePair();
    const state = randomState();
    const flowId = `flow_${randomBytes(12).toString('hex')}`;
    const expiresAt = this.now() + FLOW_TTL_MS;
    const authorizeUrl = buildAuthorizeUrl(flow.integration, flow.draft.baseUrl, {
      clientId: flow.setting.clientId ?? '',
      redirectUri: flow.redirectUri,
      state,
      codeChallenge: pkce.challenge,
      ...definedOnly({ scopes: flow.setting.scopes }),
    });
    this.flows.set(flowId, { ...flow, flowId, expiresAt, state: 'pending', connection: null, error: null });
    this.secrets.set(state, { flowId, verifier: pkce.verifier });
    return { flowId, authorizeUrl, expiresAt };
  }

  /** The flow for its tenant only: another tenant's flow id is not found, like one that never was. */
  status(tenant: TenantId, flowId: string): SignInFlow {
    const flow = this.flows.get(flowId);
    if (!flow || flow.tenant !== tenant) {
      throw new NotFoundError(`No sign-in with id "${flowId}".`, {
        fields: [{ path: 'flowId', message: 'unknown sign-in' }],
      });
    }
    if (flow.state === 'pending' && flow.expiresAt <= this.now()) flow.state = 'expired';
    return flow;
  }

  /**
   * The provider's redirect back. An unknown, spent or expired state finds
   * no flow (undefined): nothing is exchanged. Otherwise the state is spent
   * now, the code exchanged with the verifier, and the connection stored.
   */
  async complete(
    query: URLSearchParams,
    contextOf: (tenant: TenantId) => TenantContext,
  ): Promise<SignInFlow | undefined> {
    const held = this.secrets.get(query.get('state') ?? '');
    const flow = held && this.flows.get(held.flowId);
    if (!held || !flow) return undefined;
    this.secrets.delete(query.get('state')!);
    if (flow.expiresAt <= this.now()) {
      flow.state = 'expired';
      return flow;
    }
    const code = query.get('code');
    if (!code || query.has('error')) {
      const said = /^[a-z_]{1,40}$/.test(query.get('error') ?? '') ? query.get('error') : 'no code';
      return this.fail(flow, 'access_denied', `The provider did not grant access (${said}).`);
    }
    try {
      await this.store(flow, code, held.verifier, contextOf(flow.tenant));
    } catch (error) {
      if (!isToolstepsError(error))
        return this.fail(flow, 'internal_error', 'The sign-in could not be completed.');
      return this.fail(flow, error.code, error.message);
    }
    return flow;
  }

  private async store(
    flow: SignInFlow,
    code: string,
    verifier: string,
    context: TenantContext,
  ): Promise<void> {
    const { runtime } = context;
    const { clientId = '', clientSecret } = flow.setting;
    const tokens = await exchangeCode(
      {
        integration: flow.integration,
        baseUrl: flow.draft.baseUrl,
        fetch: runtime.fetch,
        dispatcher: runtime.httpDispatcher,
        clock: runtime.clock,
        timeoutMs: EXCHANGE_TIMEOUT_MS,
      },
      {
        code,
        clientId,
        redirectUri: flow.redirectUri,
        codeVerifier: verifier,
        ...definedOnly({ clientSecret }),
      },
    );
    const secrets = {
      accessToken: tokens.accessToken,
      ...definedOnly({ refreshToken: tokens.refreshToken, clientSecret }),
    };
    const connection = draftConnection(flow.integration, flow.draft, secrets, this.now(), {
      expiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
      createdAt: flow.createdAt,
    });
    const entry = { action: 'connection.store' as const, target: connection.id, caller: flow.caller };
    await context.runtime.recordWrite({ ...entry, integration: flow.integration.id }, () =>
      context.stores.connections.put(connection),
    );
    flow.state = 'connected';
    flow.connection = toConnectionView(connection, flow.integration, this.now());
  }

  private fail(flow: SignInFlow, code: string, message: string): SignInFlow {
    flow.state = 'failed';
    flow.error = { code, message };
    return flow;
  }

  private refusePastTenantLimit(tenant: TenantId): void {
    const now = this.now();
    let pending = 0;
    for (const flow of this.flows.values()) {
      if (flow.tenant === tenant && flow.state === 'pending' && flow.expiresAt > now) pending += 1;
    }
    if (pending >= MAX_PENDING_PER_TENANT) {
      throw new InputError('Too many sign-ins under way for this organization; finish or wait for one.', [
        { path: 'integration', message: 'too many sign-ins' },
      ]);
    }
  }

  /** Forgets flows past their time (and the oldest beyond the cap), so abandoned sign-ins cannot pile up. */
  private prune(): void {
    const now = this.now();
    for (const [state, held] of this.secrets) {
      const flow = this.flows.get(held.flowId);
      if (!flow || flow.expiresAt <= now) this.secrets.delete(state);
    }
    for (const [flowId, flow] of this.flows) {
      if (flow.expiresAt + FLOW_TTL_MS <= now || this.flows.size > MAX_FLOWS) this.flows.delete(flowId);
    }
    if (this.flows.size >= MAX_FLOWS) {
      throw new InputError('Too many sign-ins under way; finish or wait for one.', [
        { path: 'integration', message: 'too many sign-ins' },
      ]);
    }
  }
}
