import { z } from 'zod';
import { PlanError } from '../../src/errors.js';
import { intHeader, singleWindow } from '../../src/http/rate-limit.js';
import { defineIntegration } from '../../src/integration.js';

/**
 * A DNS label (RFC 1123): the subdomain becomes part of the host every
 * request and token goes to, so nothing that could change the host passes.
 */
export const Subdomain = z
  .string()
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)$/i, 'a DNS label: letters, digits and hyphens, 1 to 63 characters')
  .describe('The part of the account address before the provider domain, e.g. "acme" for acme.zendesk.com.');

export const ticketingPaths = {
  tickets: '/api/v2/tickets.json',
  ticket: '/api/v2/tickets/{id}.json',
  ticketComments: '/api/v2/tickets/{id}/comments.json',
  users: '/api/v2/users.json',
  user: '/api/v2/users/{id}.json',
  organizations: '/api/v2/organizations.json',
  organization: '/api/v2/organizations/{id}.json',
  search: '/api/v2/search.json',
  searchExport: '/api/v2/search/export.json',
} as const;

/** Fills `{id}` in a path with a value that is already a validated positive integer. */
export function ticketingPath(name: keyof typeof ticketingPaths, id?: number): string {
  return ticketingPaths[name].replace('{id}', String(id ?? ''));
}

const TicketingError = z.object({
  error: z
    .union([z.string(), z.object({ title: z.string().optional(), message: z.string().optional() })])
    .optional(),
  description: z.string().optional(),
  details: z.record(z.string(), z.array(z.object({ description: z.string().optional() }).loose())).optional(),
});

export const ticketing = defineIntegration({
  id: 'ticketing',
  title: 'Ticketing (Zendesk)',
  description:
    'Customer-support tickets: create, read, list, search, update and delete tickets, and call any endpoint of the ticketing API.',
  keywords: ['zendesk', 'ticket', 'tickets', 'support', 'helpdesk', 'customer service', 'ticketing'],
  connection: {
    kind: 'oauth2',
    fields: z.object({
      subdomain: Subdomain,
      clientId: z
        .string()
        .min(1)
        .optional()
        .describe('OAuth client id the tokens were issued to (needed to refresh).'),
    }),
    requiredSecrets: ['accessToken'],
    oauth: {
      authorizeUrl: (baseUrl) => `${baseUrl}/oauth/authorizations/new`,
      tokenUrl: (baseUrl) => `${baseUrl}/oauth/tokens`,
      tokenRequestEncoding: 'json',
      refreshes: true,
      defaultScopes: ['read', 'write'],
    },
  },
  baseUrl: (fields) => `https://${fields.subdomain.toLowerCase()}.zendesk.com`,
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.accessToken}` }),
  /**
   * Every response carries X-Rate-Limit / X-Rate-Limit-Remaining (per minute
   * per account); list endpoints add ratelimit-* with a reset in seconds.
   */
  readRateLimit: (headers, now) => {
    const resetSeconds = intHeader(headers, 'ratelimit-reset');
    return singleWindow(
      'minute',
      now,
      intHeader(headers, 'ratelimit-remaining') ?? intHeader(headers, 'x-rate-limit-remaining'),
      intHeader(headers, 'ratelimit-limit') ?? intHeader(headers, 'x-rate-limit'),
      resetSeconds === undefined ? undefined : now + resetSeconds * 1000,
    );
  },
  parseError: (body) => {
    if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
    const parsed = TicketingError.safeParse(body);
    if (!parsed.success) return {};
    const { error, description, details } = parsed.data;
    const providerCode = typeof error === 'string' ? error : error?.title;
    const fields = Object.entries(details ?? {}).flatMap(([field, problems]) =>
      problems.map((problem) => ({ path: field, message: problem.description ?? 'invalid' })),
    );
    const fieldText = fields.map((field) => `${field.path}: ${field.message}`).join('; ');
    const message = [typeof error === 'object' ? error.message : undefined, description, fieldText]
      .filter(Boolean)
      .join(' - ');
    return {
      ...(message ? { message } : {}),
      ...(providerCode ? { providerCode } : {}),
      ...(fields.length ? { fields } : {}),
    };
  },
  classifyError: (failure, parsed) => {
    // Triggers and some admin features answer 403 with this code on plans that lack them.
    if (failure.status === 403 && parsed.providerCode === 'FeatureNotAvailable') {
      return new PlanError(
        `${failure.method} ${failure.path} needs a higher provider plan: ${parsed.message ?? ''}`.trim(),
        {
          status: 403,
          sent: true,
          providerCode: parsed.providerCode,
          providerMessage: parsed.message,
        },
      );
    }
    return undefined;
  },
  apiCall: { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  paths: ticketingPaths,
});
