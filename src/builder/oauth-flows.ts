import { randomBytes } from 'node:crypto';
import { buildAuthorizeUrl, exchangeCode } from '../connection/oauth-client.js';
import { createPkcePair, randomState } from '../connection/pkce.js';
import { isToolstepsError, NotFoundError } from '../errors/index.js';
import type { Integration } from '../model/define-integration.js';
import type { TenantId } from '../model/tenant-id.js';
import { definedOnly } from '../values/defined-only.js';
import { checkNewAccount, noteCheck } from './account-check.js';
import type { ConnectSetting } from './builder-options.js';
import { type ConnectDraft, draftConnection } from './connect-draft.js';
import { toConnectionView } from './connection-view.js';
import { browserKeyMatches, browserKeyOf, newBrowserKey } from './flow-cookie.js';
import {
  DEFAULT_SIGN_IN_LIMITS,
  ENDED_FLOW_KEPT_MS,
  refusePastSignInLimits,
  type SignInLimits,
} from './sign-in-limits.js';
import type { TenantContext } from './tenant-contexts.js';

/** How long a person has to finish a sign-in; the state and verifier are forgotten after. */
export const FLOW_TTL_MS = 10 * 60_000;
/** The longest the token endpoint may take to answer the code exchange. */
const EXCHANGE_TIMEOUT_MS = 30_000;

/** The error code of a flow whose callback came in a browser without its cookie. */
export const OTHER_BROWSER = 'other_browser';

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
  /** When the flow gives up its slot: `ENDED_FLOW_KEPT_MS` after it ended, or after it expired unfinished. */
  releaseAt: number;
  /** SHA-256 of the key in the starting browser's cookie (flow-cookie.ts); the key itself is never kept. */
  browserKeyHash: string;
  state: FlowState;
  connection: ReturnType<typeof toConnectionView> | null;
  error: { code: string; message: string } | null;
}

/**
 * The OAuth sign-ins under way. The browser carries only the state; the
 * PKCE verifier, the client secret and the tokens never leave the server.
 * A state is used once, lives `FLOW_TTL_MS`, and its callback stores the
 * connection in the view of the tenant that started the flow, whatever
 * token (or none) the browser holds when it comes back, but only when the
 * browser is the one that started it (flow-cookie.ts). Each tenant holds at
 * most its own cap of flows, ended ones too until their slot is free
 * (sign-in-limits.ts).
 */
export class OAuthFlows {
  private readonly flows = new Map<string, SignInFlow>();
  private readonly secrets = new Map<string, { flowId: string; verifier: string }>();
  /** Slots each tenant holds in `flows`, kept beside it so a start counts in constant time. */
  private readonly held = new Map<TenantId, number>();
  private readonly limits: Required<SignInLimits>;

  constructor(
    private readonly now: () => number,
    limits: SignInLimits = {},
  ) {
    this.limits = {
      maxFlows: limits.maxFlows ?? DEFAULT_SIGN_IN_LIMITS.maxFlows,
      maxPerTenant: limits.maxPerTenant ?? DEFAULT_SIGN_IN_LIMITS.maxPerTenant,
    };
  }

  start(
    flow: Omit<
      SignInFlow,
      'flowId' | 'expiresAt' | 'releaseAt' | 'browserKeyHash' | 'state' | 'connection' | 'error'
    >,
  ): { flowId: string; authorizeUrl: string; expiresAt: number; browserKey: string } {
    this.prune();
    refusePastSignInLimits(this.held.get(flow.tenant) ?? 0, this.flows.size, this.limits);
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
    const releaseAt = expiresAt + ENDED_FLOW_KEPT_MS;
    const browser = newBrowserKey();
    this.flows.set(flowId, {
      ...flow,
      flowId,
      expiresAt,
      releaseAt,
      browserKeyHash: browser.hash,
      state: 'pending',
      connection: null,
      error: null,
    });
    this.held.set(flow.tenant, (this.held.get(flow.tenant) ?? 0) + 1);
    this.secrets.set(state, { flowId, verifier: pkce.verifier });
    return { flowId, authorizeUrl, expiresAt, browserKey: browser.key };
  }

  /** The flow for its tenant only: another tenant's flow id is not found, like one that never was. */
  status(tenant: TenantId, flowId: string): SignInFlow {
    const flow = this.flows.get(flowId);
    if (!flow || flow.tenant !== tenant) {
      throw new NotFoundError(`No sign-in with id "${flowId}".`, {
        fields: [{ path: 'flowId', message: 'unknown sign-in' }],
      });
    }
    if (flow.state === 'pending' && flow.expiresAt <= this.now()) this.end(flow, 'expired');
    return flow;
  }

  /**
   * The provider's redirect back. An unknown, spent or expired state finds
   * no flow (undefined): nothing is exchanged. Otherwise the state is spent
   * now; a browser without the flow's cookie (not the one that started it)
   * fails the flow with nothing exchanged; else the code is exchanged with
   * the verifier and the connection stored.
   */
  async complete(
    query: URLSearchParams,
    cookieHeader: string | undefined,
    contextOf: (tenant: TenantId) => TenantContext,
  ): Promise<SignInFlow | undefined> {
    const held = this.secrets.get(query.get('state') ?? '');
    const flow = held && this.flows.get(held.flowId);
    if (!held || !flow) return undefined;
    this.secrets.delete(query.get('state')!);
    if (!browserKeyMatches(browserKeyOf(cookieHeader, flow.flowId), flow.browserKeyHash)) {
      return this.fail(
        flow,
        OTHER_BROWSER,
        'The sign-in came back in another browser than the one that started it, so nothing was connected. Start it again here.',
      );
    }
    if (flow.expiresAt <= this.now()) return this.end(flow, 'expired');
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
        ...definedOnly({
          refreshTokenLifetimeS: runtime.refresher.refreshTokenLifetimeS(flow.integration.id),
        }),
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
      refreshExpiresAt: tokens.refreshExpiresAt,
      scopes: tokens.scopes,
      createdAt: flow.createdAt,
    });
    const entry = { action: 'connection.store' as const, target: connection.id, caller: flow.caller };
    await context.runtime.recordWrite({ ...entry, integration: flow.integration.id }, () =>
      context.stores.connections.put(connection),
    );
    // Checked at once: its health shown from the start, and the account's name as its label.
    const report = await checkNewAccount(runtime, flow.integration, connection.id, flow.caller);
    const checked = await noteCheck(context.stores.connections, connection.id, report, this.now());
    flow.connection = toConnectionView(checked, flow.integration, this.now());
    this.end(flow, 'connected');
  }

  private fail(flow: SignInFlow, code: string, message: string): SignInFlow {
    flow.error = { code, message };
    return this.end(flow, 'failed');
  }

  /** Settles a flow; its slot is free once the page has had time to read how it ended. */
  private end(flow: SignInFlow, state: Exclude<FlowState, 'pending'>): SignInFlow {
    flow.state = state;
    flow.releaseAt = Math.min(flow.releaseAt, this.now() + ENDED_FLOW_KEPT_MS);
    return flow;
  }

  /** Frees the slots of flows past their time, so abandoned or ended sign-ins cannot pile up. */
  private prune(): void {
    const now = this.now();
    for (const [state, held] of this.secrets) {
      const flow = this.flows.get(held.flowId);
      if (!flow || flow.expiresAt <= now) this.secrets.delete(state);
    }
    for (const [flowId, flow] of this.flows) {
      if (flow.releaseAt > now) continue;
      this.flows.delete(flowId);
      const left = (this.held.get(flow.tenant) ?? 1) - 1;
      if (left > 0) this.held.set(flow.tenant, left);
      else this.held.delete(flow.tenant);
    }
  }
}
