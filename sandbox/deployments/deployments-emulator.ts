import type { Clock } from '../../src/model/clock.js';
import type { Emulator } from '../emulator.js';
import { FixedWindowLimiter } from '../fixed-window-limiter.js';
import { OAuthProvider } from '../oauth-provider.js';
import { Router } from '../router.js';
import { bearerToken, type Reply, type SandboxRequest, withHeaders } from '../sandbox-http.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { aliasRoutes, productionRoutes } from './alias-routes.js';
import { revokeAppToken } from './app-token-revocation.js';
import { deploymentRoutes } from './deployment-routes.js';
import { DeploymentWebhookSender } from './deployment-webhook-sender.js';
import { DeploymentsAssumptions } from './deployments-assumptions.js';
import { seedDeploymentsWorld } from './deployments-seed.js';
import {
  DEFAULT_TIMELINE,
  type DeploymentRecord,
  type DeploymentTimeline,
  type DerivedState,
  type DnsRecord,
  stateAt,
} from './deployments-state.js';
import { deploymentsTwin } from './deployments-twin.js';
import { apiError, type Caller } from './deployments-wire.js';
import { DeploymentsWorld } from './deployments-world.js';
import { domainCheckRoutes } from './domain-check-routes.js';
import { domainRoutes } from './domain-routes.js';
import { envRoutes } from './env-routes.js';
import { eventRoutes } from './event-routes.js';
import { projectRoutes } from './project-routes.js';
import { teamRoutes } from './team-routes.js';
import { deploymentWebhookRoutes } from './webhook-routes.js';

export interface DeploymentsEmulatorOptions {
  clock: Clock;
  /** Requests per minute per user. */
  requestsPerMinute?: number;
  /** How long builds stay QUEUED, INITIALIZING and BUILDING. */
  timeline?: Partial<DeploymentTimeline>;
  /** Builds of these branches end in ERROR. Default: ["broken"]. */
  failingBranches?: string[];
  /** Sends webhook deliveries; the sandbox passes its shared one. */
  webhooks?: WebhookDispatcher;
  /** What the provider facts leave open (deployments-assumptions.ts); defaults when absent. */
  assumptions?: DeploymentsAssumptions;
}

/** Public client the CLI uses (PKCE), and a confidential one with a secret. */
export const DEPLOYMENTS_SANDBOX_CLIENTS = [
  { id: 'toolsteps-cli' },
  { id: 'toolsteps-server', secret: 'sandbox-client-secret' },
];

/** The one OAuth "account" of the platform; users are told apart by their user number. */
const PLATFORM = 'platform';

/**
 * The deployment platform (Vercel REST API shape): deployments whose state
 * follows the sandbox clock (QUEUED -> INITIALIZING -> BUILDING -> READY or
 * ERROR), cancel while not finished, projects, domains, environment
 * variables and teams, `teamId` on every call, OAuth with long-lived tokens
 * and a form-encoded token exchange, and per-user rate limits with
 * X-RateLimit-* headers and 429s.
 */
export class DeploymentsEmulator implements Emulator {
  readonly mount = 'deployments';
  readonly oauth: OAuthProvider;
  /**
   * Newer apps' tokens: they expire (1 hour by assumption) and come with a refresh token,
   * exchanged at /login/oauth/token (provider-facts). Integration tokens from
   * `oauth` are long-lived. Both authenticate the API.
   */
  readonly appOAuth: OAuthProvider;
  readonly limiter: FixedWindowLimiter;
  timeline: DeploymentTimeline;
  failingBranches: string[];
  world: DeploymentsWorld;
  private readonly api = new Router<Caller>();
  /** Announces deployment changes (created, finished, failed, cancelled) to the owners' webhooks. */
  readonly webhooks: DeploymentWebhookSender;
  /** What evaluation scenarios seed and check. */
  readonly twin = deploymentsTwin(
    () => this.world,
    () => this.options.clock.now(),
    {
      expireAll: () => this.oauth.expireAll() + this.appOAuth.expireAll(),
      revokeAll: () => {
        this.oauth.revokeAccount(PLATFORM);
        this.appOAuth.revokeAccount(PLATFORM);
      },
    },
  );

  constructor(private readonly options: DeploymentsEmulatorOptions) {
    this.oauth = new OAuthProvider({
      clock: options.clock,
      tokenPrefix: 'vcl',
      accessTokenTtlMs: undefined,
      issuesRefreshTokens: false,
      clients: DEPLOYMENTS_SANDBOX_CLIENTS,
    });
    this.appOAuth = new OAuthProvider({
      clock: options.clock,
      tokenPrefix: 'vca',
      accessTokenTtlMs:
        (options.assumptions ?? DeploymentsAssumptions.parse({})).app_token_ttl_seconds * 1000,
      issuesRefreshTokens: true,
      clients: DEPLOYMENTS_SANDBOX_CLIENTS,
    });
    this.limiter = new FixedWindowLimiter(options.clock, options.requestsPerMinute ?? 120, 60_000);
    this.timeline = { ...DEFAULT_TIMELINE, ...options.timeline };
    this.failingBranches = [...(options.failingBranches ?? ['broken'])];
    this.world = this.newWorld();
    deploymentRoutes(this.api);
    eventRoutes(this.api);
    projectRoutes(this.api);
    domainRoutes(this.api);
    domainCheckRoutes(this.api);
    aliasRoutes(this.api);
    productionRoutes(this.api);
    envRoutes(this.api);
    teamRoutes(this.api);
    deploymentWebhookRoutes(this.api);
    const dispatcher = options.webhooks ?? new WebhookDispatcher({ clock: options.clock });
    this.webhooks = new DeploymentWebhookSender(options.clock, dispatcher, () => this.world);
    dispatcher.onTick(() => this.webhooks.tick());
  }

  /** A world holding the seed (deployments-seed.ts) as of now. */
  private newWorld(): DeploymentsWorld {
    const world = new DeploymentsWorld({
      now: () => this.options.clock.now(),
      timeline: () => this.timeline,
      failingBranches: () => this.failingBranches,
    });
    seedDeploymentsWorld(world, this.options.clock.now());
    return world;
  }

  /** The API routes this emulator serves (method and template), for coverage tests. */
  servedRoutes(): { method: string; template: string }[] {
    return this.api.served();
  }

  reset(): void {
    this.world = this.newWorld();
    this.oauth.reset();
    this.appOAuth.reset();
    this.limiter.reset();
  }

  /** An expiring access token and its refresh token, as a newer app gets them, for a seeded user. */
  issueAppTokens(userNumber = 1) {
    return this.appOAuth.issue(PLATFORM, userNumber, ['deployments']);
  }

  /** A long-lived token for a seeded user (1 = ada, 2 = sam), without the browser step. */
  issueToken(userNumber = 1): string {
    return this.oauth.issue(PLATFORM, userNumber, ['deployments']).access_token;
  }

  /**
   * Test hook: the provider soft-blocks a team (an unpaid invoice); its new
   * deployments are refused with 402 until `blocked` is false again.
   */
  softBlockTeam(idOrSlug: string, blocked = true): void {
    const team = this.world.team(idOrSlug);
    if (!team) throw new Error(`No sandbox team "${idOrSlug}".`);
    if (blocked) team.softBlock = 'The account is missing a payment, so the payment method must be updated.';
    else delete team.softBlock;
  }

  /** Test hook: more lines in a deployment's build log, printed right after its build command. */
  appendBuildLog(id: string, lines: string[]): void {
    const deployment = this.world.findDeployment(id);
    if (!deployment) throw new Error(`No sandbox deployment "${id}".`);
    deployment.extraLog = [...(deployment.extraLog ?? []), ...lines];
  }

  /**
   * Test hook: the records public DNS answers for `name` from now on (none
   * removes them), as if the user had set them at their DNS host: what
   * verifying a project domain and reading a domain's configuration see.
   */
  setDns(name: string, records: DnsRecord[]): void {
    if (records.length) this.world.dns.set(name.toLowerCase(), records);
    else this.world.dns.delete(name.toLowerCase());
  }

  /** A deployment and its state now, for assertions. */
  deployment(id: string): (DeploymentRecord & DerivedState) | undefined {
    const found = this.world.findDeployment(id);
    return found ? { ...found, ...stateAt(found, this.options.clock.now()) } : undefined;
  }

  /**
   * Adds `count` finished deployments to a project, `spacingMs` apart and
   * ending `spacingMs` before now, for paging tests.
   */
  seedDeployments(
    count: number,
    options: { project?: string; owner?: string; spacingMs?: number; target?: string | null } = {},
  ): DeploymentRecord[] {
    const scope = this.world.scope(options.owner ?? 'user_ada');
    const project = scope.project(options.project ?? 'web');
    if (!project) throw new Error(`No project "${options.project}" in ${scope.ownerId}.`);
    const creator = this.world.users.get(1)!;
    const spacing = options.spacingMs ?? 60_000;
    const now = this.options.clock.now();
    return Array.from({ length: count }, (_, index) =>
      this.world.createDeployment(scope, {
        project,
        creator,
        target: options.target ?? null,
        gitSource: { type: 'github', repoId: project.link?.repoId, ref: 'main' },
        createdAt: now - (count - index) * spacing,
      }),
    );
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    if (request.method === 'GET' && request.path === '/oauth/authorize') {
      return this.oauth.authorize(request.query, PLATFORM, 1);
    }
    if (request.method === 'POST' && request.path === '/v2/oauth/access_token') {
      return this.oauth.exchange(request.body, PLATFORM);
    }
    if (request.method === 'POST' && request.path === '/login/oauth/token') {
      return this.appOAuth.exchange(request.body, PLATFORM);
    }
    if (request.method === 'POST' && request.path === '/login/oauth/token/revoke') {
      return revokeAppToken(this.appOAuth, request.body);
    }

    const token = bearerToken(request.headers);
    const integrationCheck = this.oauth.check(token, PLATFORM);
    const check = integrationCheck.ok ? integrationCheck : this.appOAuth.check(token, PLATFORM);
    // An unknown or revoked token is a 403 `forbidden` marked `invalidToken`, not a 401.
    if (!check.ok) {
      return token
        ? apiError(403, 'forbidden', 'Not authorized', { invalidToken: true })
        : apiError(403, 'forbidden', 'The request is missing an authentication token', {
            missingToken: true,
          });
    }
    const user = this.world.users.get(check.userId);
    if (!user) return apiError(403, 'forbidden', 'Not authorized', { invalidToken: true });

    const now = this.options.clock.now();
    const verdict = this.limiter.consume(user.id);
    const resetSeconds = Math.ceil(verdict.resetAt / 1000);
    const headers = {
      'x-ratelimit-limit': String(verdict.limit),
      'x-ratelimit-remaining': String(verdict.remaining),
      'x-ratelimit-reset': String(resetSeconds),
    };
    if (!verdict.allowed) {
      // No Retry-After: the reset header (epoch seconds) and the body say when the window refills.
      return withHeaders(
        apiError(429, 'rate_limited', 'Rate limit exceeded', {
          limit: { remaining: 0, reset: resetSeconds, resetMs: verdict.resetAt, total: verdict.limit },
        }),
        headers,
      );
    }

    const teamRef = request.query.get('teamId') ?? request.query.get('slug');
    let ownerId = user.id;
    if (teamRef) {
      const team = this.world.team(teamRef);
      if (!team || !this.world.isMember(team, user)) {
        return withHeaders(
          apiError(403, 'forbidden', `You don't have permission to access the team "${teamRef}".`),
          headers,
        );
      }
      ownerId = team.id;
    }
    const found = this.api.match({ method: request.method, path: request.path });
    if (found === undefined) {
      return withHeaders(apiError(404, 'not_found', 'The requested path was not found.'), headers);
    }
    if (found === 'method') {
      return withHeaders(
        apiError(405, 'method_not_allowed', `${request.method} is not allowed here.`),
        headers,
      );
    }
    const caller: Caller = { user, scope: this.world.scope(ownerId), world: this.world, now };
    const reply = await this.api.run(found, request, caller);
    // A create or cancel, or a build that finished since the last request: tell the webhooks now.
    this.webhooks.tick();
    return withHeaders(reply, headers);
  }
}
