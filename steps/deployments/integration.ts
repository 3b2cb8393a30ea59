import { z } from 'zod';
import { AuthError, PlanError } from '../../src/errors.js';
import { intHeader, singleWindow } from '../../src/http/rate-limit.js';
import { defineIntegration } from '../../src/integration.js';

/** The provider's API host; the web host serves the sign-in page. */
export const DEPLOYMENTS_API_HOST = 'https://api.vercel.com';
const DEPLOYMENTS_WEB_AUTHORIZE_URL = 'https://vercel.com/oauth/authorize';

/**
 * Every provider path of the integration, in one table, so it can be
 * re-pointed. Each path carries its own version prefix (spec: v2 to v13).
 */
export const deploymentsPaths = {
  listDeployments: '/v6/deployments',
  deployment: '/v13/deployments/{id}',
  createDeployment: '/v13/deployments',
  cancelDeployment: '/v12/deployments/{id}/cancel',
  deleteDeployment: '/v13/deployments/{id}',
  projects: '/v9/projects',
  project: '/v9/projects/{id}',
  createProject: '/v10/projects',
  domains: '/v5/domains',
  domain: '/v5/domains/{domain}',
  addProjectDomain: '/v10/projects/{id}/domains',
  projectDomain: '/v9/projects/{id}/domains/{domain}',
  projectEnv: '/v9/projects/{id}/env',
  createProjectEnv: '/v10/projects/{id}/env',
  projectEnvVar: '/v9/projects/{id}/env/{envId}',
  teams: '/v2/teams',
  team: '/v2/teams/{id}',
  teamMembers: '/v2/teams/{id}/members',
  oauthToken: '/v2/oauth/access_token',
  oauthAuthorize: '/oauth/authorize',
} as const;

/** Fills a path's placeholders; every value is percent-encoded, so an id can never add a segment. */
export function deploymentsPath(
  name: keyof typeof deploymentsPaths,
  params: { id?: string; domain?: string; envId?: string } = {},
): string {
  return deploymentsPaths[name].replace(/\{(id|domain|envId)\}/g, (_, key: 'id' | 'domain' | 'envId') =>
    encodeURIComponent(params[key] ?? ''),
  );
}

/** Team ids look like `team_...`; the provider also takes the team slug in the same parameter. */
export const TeamId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a team id such as team_abc123: letters, digits, _ and -')
  .describe('Team id (team_...) that scopes every call; omit for the personal account.');

/** The error body of every endpoint: `{"error": {"code", "message", ...}}`. */
const DeploymentsErrorBody = z.object({
  error: z
    .object({
      code: z.string().optional(),
      message: z.string().optional(),
      invalidToken: z.boolean().optional(),
    })
    .loose(),
});

export const deployments = defineIntegration({
  id: 'deployments',
  title: 'Deployments (Vercel)',
  description:
    'Deployment platform: create, list and cancel deployments, and call any endpoint for projects, domains, environment variables and teams.',
  keywords: ['vercel', 'deploy', 'deployment', 'deployments', 'hosting', 'preview', 'production', 'build'],
  connection: {
    kind: 'oauth2_no_refresh',
    fields: z.object({
      teamId: TeamId.optional(),
      clientId: z
        .string()
        .min(1)
        .optional()
        .describe('OAuth client id the token was issued to (kept for reference: D tokens do not refresh).'),
    }),
    requiredSecrets: ['accessToken'],
    oauth: {
      // The real sign-in page is on the web host; an overridden base URL
      // (the sandbox, a gateway) serves both pages itself.
      authorizeUrl: (baseUrl) =>
        baseUrl === DEPLOYMENTS_API_HOST
          ? DEPLOYMENTS_WEB_AUTHORIZE_URL
          : `${baseUrl}${deploymentsPaths.oauthAuthorize}`,
      tokenUrl: (baseUrl) => `${baseUrl}${deploymentsPaths.oauthToken}`,
      // The code is exchanged form-encoded; the token is long-lived, with no refresh token.
      tokenRequestEncoding: 'form',
      refreshes: false,
      // Permissions are configured on the provider's integration, not requested as scopes.
      defaultScopes: [],
    },
  },
  baseUrl: () => DEPLOYMENTS_API_HOST,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.accessToken}` }),
  /** Every endpoint takes `teamId`; without it calls act on the personal account. */
  defaultQuery: (fields) => ({ teamId: fields.teamId }),
  /** X-RateLimit-Limit / -Remaining / -Reset, the reset in epoch seconds. */
  readRateLimit: (headers, now) => {
    const resetSeconds = intHeader(headers, 'x-ratelimit-reset');
    return singleWindow(
      'api',
      now,
      intHeader(headers, 'x-ratelimit-remaining'),
      intHeader(headers, 'x-ratelimit-limit'),
      resetSeconds === undefined ? undefined : resetSeconds * 1000,
    );
  },
  parseError: (body) => {
    if (typeof body === 'string') {
      const text = body.trim().slice(0, 300);
      return text ? { message: text } : {};
    }
    const parsed = DeploymentsErrorBody.safeParse(body);
    if (!parsed.success) return {};
    const { code } = parsed.data.error;
    const message = parsed.data.error.message?.trim();
    return { ...(message ? { message } : {}), ...(code ? { providerCode: code } : {}) };
  },
  classifyError: (failure, parsed) => {
    const where = `${failure.method} ${failure.path}`;
    const known = {
      sent: true,
      providerCode: parsed.providerCode,
      providerMessage: parsed.message,
      context: { method: failure.method, path: failure.path },
    };
    // A revoked or unknown token is answered 403 `forbidden` with `invalidToken: true`, not 401:
    // it needs a new sign-in, unlike a 403 for a team or project the account may not touch.
    const invalidToken = DeploymentsErrorBody.safeParse(failure.body).data?.error.invalidToken === true;
    if (failure.status === 403 && invalidToken) {
      return new AuthError(
        `${where} was refused: the token is not valid. Reconnect (toolsteps connect deployments).`,
        { ...known, status: 403, reauthorize: true },
      );
    }
    // 402 here means the plan does not include the feature, not spent credits.
    if (failure.status === 402) {
      return new PlanError(
        `${where} needs a higher provider plan${parsed.message ? `: ${parsed.message}` : ''}.`,
        {
          ...known,
          status: 402,
        },
      );
    }
    return undefined;
  },
  apiCall: { methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] },
  paths: deploymentsPaths,
});
