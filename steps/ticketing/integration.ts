import * as z from 'zod';
import { builtOnce, defineIntegration, readQuotaHeaders } from '../../src/kit/index.js';
import { ticketingConnectionCheck } from './lib/connection-check.js';
import { ticketingPaths } from './lib/paths.js';
import { classifyTicketingError, parseTicketingError, TICKETING_AUTH_HINT } from './lib/provider-errors.js';
import { UPLOAD_DIRS, UPLOAD_ORIGINS } from './lib/upload-source.js';

/**
 * A DNS label (RFC 1123): the subdomain becomes part of the host every
 * request and token goes to, so nothing that could change the host passes.
 */
export const Subdomain = builtOnce(() =>
  z
    .string()
    .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)$/i, 'a DNS label: letters, digits and hyphens, 1 to 63 characters')
    .describe(
      'The part of the account address before the provider domain, e.g. "acme" for acme.zendesk.com.',
    ),
);

/** The connection's public fields: built when first read (issue 37), not when the catalogue is imported. */
const TicketingConnectionFields = builtOnce(() =>
  z.object({
    subdomain: Subdomain(),
    clientId: z
      .string()
      .min(1)
      .optional()
      .describe('OAuth client id the tokens were issued to (needed to refresh).'),
  }),
);

export const ticketing = defineIntegration({
  id: 'ticketing',
  title: 'Ticketing (Zendesk)',
  description:
    'Customer-support tickets: create, read, list, search, update and delete tickets, and call any endpoint of the ticketing API.',
  keywords: ['zendesk', 'ticket', 'tickets', 'support', 'helpdesk', 'customer service', 'ticketing'],
  connection: {
    kind: 'oauth2',
    get fields() {
      return TicketingConnectionFields();
    },
    requiredSecrets: ['accessToken'],
    oauth: {
      authorizeUrl: (baseUrl) => `${baseUrl}/oauth/authorizations/new`,
      tokenUrl: (baseUrl) => `${baseUrl}/oauth/tokens`,
      tokenRequestEncoding: 'json',
      refreshes: true,
      defaultScopes: ['read', 'write'],
      // The token endpoint's table: refresh_token_expires_in from 7 to 90 days, 30 when not asked.
      refreshTokenLifetime: {
        parameter: 'refresh_token_expires_in',
        minS: 604_800,
        maxS: 7_776_000,
        defaultS: 2_592_000,
      },
    },
    // RevokeOAuthToken: `current` names the bearer token itself, and its refresh token dies with it.
    revocation: { kind: 'bearer_delete', url: (baseUrl) => `${baseUrl}${ticketingPaths.revokeCurrentToken}` },
  },
  baseUrl: (fields) => `https://${fields.subdomain.toLowerCase()}.zendesk.com`,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.accessToken}` }),
  /**
   * Every response carries X-Rate-Limit / X-Rate-Limit-Remaining (per minute
   * per account); list endpoints add ratelimit-* with a reset in seconds.
   */
  readRateLimit: readQuotaHeaders({
    window: 'minute',
    remaining: ['ratelimit-remaining', 'x-rate-limit-remaining'],
    limit: ['ratelimit-limit', 'x-rate-limit'],
    reset: 'ratelimit-reset',
    resetFormat: 'seconds_from_now',
  }),
  authHint: TICKETING_AUTH_HINT,
  parseError: parseTicketingError,
  classifyError: classifyTicketingError,
  apiCall: { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  constraints: {
    [UPLOAD_DIRS]: 'the local directories Upload Attachment may read files from (none when unset)',
    [UPLOAD_ORIGINS]:
      'the origins (scheme, host, port) Upload Attachment may fetch files from (none when unset)',
  },
  paths: ticketingPaths,
  connectionCheck: ticketingConnectionCheck,
});
