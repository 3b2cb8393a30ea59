import * as z from 'zod';
import { builtOnce, defineIntegration, readQuotaHeaders } from '../../src/kit/index.js';
import { deploymentsConnectionCheck } from './lib/connection-check.js';
import { deploymentsPaths } from './lib/paths.js';
import { PROJECTS_CONSTRAINT } from './lib/project-scope.js';
import { classifyDeploymentsError, parseDeploymentsError } from './lib/provider-errors.js';

/** The provider's API host; the web host serves the sign-in page. */
export const DEPLOYMENTS_API_HOST = 'https://api.vercel.com';
const DEPLOYMENTS_WEB_AUTHORIZE_URL = 'https://vercel.com/oauth/authorize';

/** Team ids look like `team_...`; the provider also takes the team slug in the same parameter. */
export const TeamId = builtOnce(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a team id such as team_abc123: letters, digits, _ and -')
    .describe('Team id (team_...) that scopes every call; omit for the personal account.'),
);

/** The connection's public fields: built when first read (issue 37), not when the catalogue is imported. */
const DeploymentsConnectionFields = builtOnce(() =>
  z.object({
    teamId: TeamId().optional(),
    clientId: z
      .string()
      .min(1)
      .optional()
      .describe('OAuth client id the token was issued to (needed to refresh an expiring token).'),
  }),
);

export const deployments = defineIntegration({
  id: 'deployments',
  title: 'Deployments (Vercel)',
  description:
    'Deployment platform: create, list and cancel deployments, and call any endpoint for projects, domains, environment variables and teams.',
  keywords: ['vercel', 'deploy', 'deployment', 'deployments', 'hosting', 'preview', 'production', 'build'],
  connection: {
    kind: 'oauth2',
    get fields() {
      return DeploymentsConnectionFields();
    },
    requiredSecrets: ['accessToken'],
    oauth: {
      // The real sign-in page is on the web host; an overridden base URL
      // (the sandbox, a gateway) serves both pages itself.
      authorizeUrl: (baseUrl) =>
        baseUrl === DEPLOYMENTS_API_HOST
          ? DEPLOYMENTS_WEB_AUTHORIZE_URL
          : `${baseUrl}${deploymentsPaths.oauthAuthorize}`,
      tokenUrl: (baseUrl) => `${baseUrl}${deploymentsPaths.oauthToken}`,
      // Two kinds of connection: an integration's token is long-lived, with no
      // refresh token, and nothing refreshes it; a newer app's token expires
      // and comes with a refresh token, exchanged at /login/oauth/token on the
      // API host (form-encoded, like the code exchange).
      refreshUrl: (baseUrl) => `${baseUrl}${deploymentsPaths.oauthRefresh}`,
      tokenRequestEncoding: 'form',
      refreshes: true,
      // Permissions are configured on the provider's integration, not requested as scopes.
      defaultScopes: [],
    },
    // Apps' tokens (the ones with a refresh token) are revoked at the endpoint their metadata lists
    // (RFC 7009); an integration's long-lived token has none, and that endpoint would answer 200 for
    // a token it does not know, so it is not sent there.
    revocation: {
      kind: 'rfc7009',
      url: (baseUrl) => `${baseUrl}${deploymentsPaths.oauthRevoke}`,
      withoutRefreshToken:
        "an integration's long-lived token has no revocation endpoint: remove the integration from the account's Integrations settings to end it",
    },
  },
  baseUrl: () => DEPLOYMENTS_API_HOST,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.accessToken}` }),
  /** Every endpoint takes `teamId`; without it calls act on the personal account. */
  defaultQuery: (fields) => ({ teamId: fields.teamId }),
  /** X-RateLimit-Limit / -Remaining / -Reset, the reset in epoch seconds. */
  readRateLimit: readQuotaHeaders({
    window: 'api',
    remaining: ['x-ratelimit-remaining'],
    limit: ['x-ratelimit-limit'],
    reset: 'x-ratelimit-reset',
    resetFormat: 'epoch_seconds',
  }),
  parseError: parseDeploymentsError,
  classifyError: classifyDeploymentsError,
  apiCall: { methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] },
  paths: deploymentsPaths,
  connectionCheck: deploymentsConnectionCheck,
  constraints: { [PROJECTS_CONSTRAINT]: 'the project names or ids the steps and triggers may touch' },
});
