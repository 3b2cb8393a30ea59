import type { Clock } from '../../src/model/clock.js';
import { definedOnly } from '../../src/values/defined-only.js';
import type { Emulator } from '../emulator.js';
import { FixedWindowLimiter } from '../fixed-window-limiter.js';
import { OAuthProvider } from '../oauth-provider.js';
import { draftRateLimitHeaders, secondsToReset } from '../rate-limit-headers.js';
import { Router } from '../router.js';
import { bearerToken, json, type Reply, type SandboxRequest, text, withHeaders } from '../sandbox-http.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { directoryRoutes } from './directory-routes.js';
import { macroRoutes } from './macro-routes.js';
import { organizationRoutes } from './organization-routes.js';
import { peopleRoutes } from './people-routes.js';
import { SearchQueryError } from './search-query.js';
import { searchRoutes } from './search-routes.js';
import { suspendedTicketRoutes } from './suspended-ticket-routes.js';
import { ticketRoutes } from './ticket-routes.js';
import { TicketingAccount } from './ticketing-account.js';
import { TicketingAssumptions } from './ticketing-assumptions.js';
import { seedTicketingAccount } from './ticketing-seed.js';
import { ticketingTwin } from './ticketing-twin.js';
import { TicketingWebhookSender } from './ticketing-webhook-sender.js';
import { NOT_FOUND, type TicketingCaller } from './ticketing-wire.js';
import { revokeTokenRoute } from './token-revocation-route.js';
import { triggerRoutes } from './trigger-routes.js';
import { uploadRoutes } from './upload-routes.js';
import { userRoutes } from './user-routes.js';
import { viewRoutes } from './view-routes.js';
import { webhookRoutes } from './webhook-routes.js';

const DEFAULT_ASSUMPTIONS = TicketingAssumptions.parse({});

export interface TicketingEmulatorOptions {
  clock: Clock;
  /** Requests per minute per account (the provider's plans range 200 to 2,500). */
  requestsPerMinute?: number;
  accessTokenTtlMs?: number;
  /** Sends webhook deliveries; the sandbox passes its shared one. */
  webhooks?: WebhookDispatcher;
  /** What the provider's description leaves open (ticketing-assumptions.ts); defaults when absent. */
  assumptions?: TicketingAssumptions;
}

/** Public client the CLI uses (PKCE), and a confidential one with a secret. */
export const TICKETING_SANDBOX_CLIENTS = [
  { id: 'toolsteps-cli' },
  { id: 'toolsteps-server', secret: 'sandbox-client-secret' },
];

/**
 * The ticketing provider (Zendesk Support API v2 shape): tickets with
 * comments, users, organizations, cursor and offset pagination, search with
 * its query language and 1,000-result cap, the search export, OAuth with
 * rotating refresh tokens, and per-minute rate limits with the real headers.
 */
/**
 * The provider's roles: only admins manage webhooks and business rules;
 * end users reach none of the agent API (tickets, search, people), which
 * answers them 403 "You do not have access to this page".
 */
function roleRefuses(role: 'end-user' | 'agent' | 'admin', path: string): boolean {
  if (role === 'admin') return false;
  if (/^\/api\/v2\/(webhooks|triggers)\b/.test(path)) return true;
  // Everyone may read who they are (users/me), as the provider lets any signed-in user.
  if (/^\/api\/v2\/users\/me(\.json)?$/.test(path)) return false;
  return (
    role === 'end-user' &&
    /^\/api\/v2\/(tickets|search|users|organizations|groups|tags|ticket_fields|ticket_forms)\b/.test(path)
  );
}

export class TicketingEmulator implements Emulator {
  readonly mount = 'ticketing';
  readonly oauth: OAuthProvider;
  readonly limiter: FixedWindowLimiter;
  /** When false, a 429 comes without Retry-After, as the provider sometimes sends it. */
  sendRetryAfter = true;
  private readonly accounts = new Map<string, TicketingAccount>();
  private readonly api = new Router<TicketingCaller>();
  /** Turns ticket changes into signed webhook deliveries. */
  readonly webhooks: TicketingWebhookSender;
  /** What evaluation scenarios seed and check: the sandbox connection's account, `acme`. */
  readonly twin = ticketingTwin(() => this.account('acme'), {
    expireAll: () => this.oauth.expireAll(),
    revokeAccount: (account) => this.oauth.revokeAccount(account),
  });

  constructor(private readonly options: TicketingEmulatorOptions) {
    this.oauth = new OAuthProvider({
      clock: options.clock,
      tokenPrefix: 'tkt',
      accessTokenTtlMs: options.accessTokenTtlMs ?? 30 * 60_000,
      issuesRefreshTokens: true,
      // The token endpoint's table: expires_in 5 min to 2 days, refresh_token_expires_in 7 to 90 days.
      lifetimeRequests: { accessS: { min: 300, max: 172_800 }, refreshS: { min: 604_800, max: 7_776_000 } },
      clients: TICKETING_SANDBOX_CLIENTS,
    });
    this.limiter = new FixedWindowLimiter(options.clock, options.requestsPerMinute ?? 700, 60_000);
    ticketRoutes(this.api);
    // Before the people routes, whose `/users/:id` would take "search" as an id.
    userRoutes(this.api);
    directoryRoutes(this.api);
    peopleRoutes(this.api);
    organizationRoutes(this.api);
    viewRoutes(this.api);
    macroRoutes(this.api);
    suspendedTicketRoutes(this.api);
    searchRoutes(this.api);
    webhookRoutes(this.api);
    triggerRoutes(this.api);
    uploadRoutes(this.api);
    const dispatcher = options.webhooks ?? new WebhookDispatcher({ clock: options.clock });
    this.webhooks = new TicketingWebhookSender(options.clock, dispatcher);
  }

  /** The emulated account of a subdomain, made on first use, so a test can seed or inspect its tickets directly. */
  account(subdomain: string): TicketingAccount {
    const key = subdomain.toLowerCase();
    let account = this.accounts.get(key);
    if (!account) {
      account = new TicketingAccount(
        key,
        () => new Date(this.options.clock.now()).toISOString(),
        (changed, change) => this.webhooks.ticketChanged(changed, change),
      );
      seedTicketingAccount(account);
      this.accounts.set(key, account);
    }
    return account;
  }

  /** The API routes this emulator serves (method and template), for coverage tests. */
  servedRoutes(): { method: string; template: string }[] {
    return this.api.served();
  }

  reset(): void {
    this.accounts.clear();
    this.oauth.reset();
    this.limiter.reset();
  }

  /** Tokens for the seeded admin, without the browser step. */
  /** Tokens of the seeded admin (user 1) by default; user 2 is an agent, user 3 an end user. */
  issueTokens(subdomain: string, scopes = ['read', 'write'], userId = 1) {
    this.account(subdomain);
    return this.oauth.issue(subdomain.toLowerCase(), userId, scopes);
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    const [, subdomain = '', ...rest] = request.path.split('/');
    if (!/^[a-z0-9-]{1,63}$/i.test(subdomain)) return json(404, NOT_FOUND);
    const path = `/${rest.join('/')}`;
    const account = this.account(subdomain);
    if (path === '/oauth/authorizations/new' && request.method === 'GET') {
      return this.oauth.authorize(request.query, account.subdomain, 1);
    }
    if (path === '/oauth/tokens' && request.method === 'POST')
      return this.oauth.exchange(request.body, account.subdomain);

    const verdict = this.limiter.consume(account.subdomain);
    const now = this.options.clock.now();
    const resetSeconds = secondsToReset(verdict, now);
    const isList = request.method === 'GET' && !/\/\d+(\.json)?$/.test(path);
    const headers: Record<string, string> = {
      'x-rate-limit': String(verdict.limit),
      'x-rate-limit-remaining': String(verdict.remaining),
      ...(isList ? draftRateLimitHeaders(verdict, now) : {}),
    };
    if (!verdict.allowed) {
      // The provider answers 429 as plain text, with Retry-After in seconds (sometimes missing).
      return text(
        429,
        'Rate limit for ticket updates exceeded, please wait before updating this ticket again',
        {
          ...headers,
          ...definedOnly({ 'retry-after': this.sendRetryAfter ? String(resetSeconds) : undefined }),
        },
      );
    }
    const check = this.oauth.check(bearerToken(request.headers), account.subdomain);
    if (!check.ok) {
      return withHeaders(
        json(401, { error: 'invalid_token', description: "Couldn't authenticate you" }),
        headers,
      );
    }
    const revoked = revokeTokenRoute(
      this.oauth,
      { method: request.method, path },
      bearerToken(request.headers) ?? '',
      account.subdomain,
    );
    if (revoked) return withHeaders(revoked, headers);
    const writes = request.method !== 'GET';
    if (writes && !check.scopes.some((scope) => scope === 'write' || scope.endsWith(':write'))) {
      return withHeaders(
        json(403, { error: 'Forbidden', description: 'You do not have access to this page' }),
        headers,
      );
    }
    const role = account.users.get(check.userId)?.role ?? 'end-user';
    if (roleRefuses(role, path)) {
      return withHeaders(
        json(403, { error: 'Forbidden', description: 'You do not have access to this page' }),
        headers,
      );
    }
    const found = this.api.match({ method: request.method, path });
    if (!found)
      return withHeaders(json(404, { error: 'InvalidEndpoint', description: 'Not found' }), headers);
    if (found === 'method') return withHeaders(json(405, { error: 'MethodNotAllowed' }), headers);
    const host = request.headers.host ?? '127.0.0.1';
    const caller: TicketingCaller = {
      account,
      userId: check.userId,
      scopes: check.scopes,
      base: `http://${host}/ticketing/${account.subdomain}`,
      webhooks: this.webhooks,
      assumptions: this.options.assumptions ?? DEFAULT_ASSUMPTIONS,
    };
    if (account.plan === 'team' && /^\/api\/v2\/(webhooks|triggers)\b/.test(path)) {
      // Lower plans lack these features; the provider answers 403 FeatureNotAvailable.
      return withHeaders(
        json(403, {
          error: 'FeatureNotAvailable',
          description: `${path.split('/')[3]} are not available on the Team plan`,
        }),
        headers,
      );
    }
    try {
      const reply = await this.api.run(found, { ...request, path }, caller);
      return withHeaders(reply, headers);
    } catch (error) {
      if (error instanceof SearchQueryError) {
        return withHeaders(json(400, { error: 'InvalidValue', description: error.message }), headers);
      }
      throw error;
    }
  }
}
