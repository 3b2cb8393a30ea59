import * as z from 'zod';
import {
  AuthError,
  builtOnce,
  definedOnly,
  type ParsedProviderError,
  PermissionError,
  PlanError,
  type ProviderFailure,
} from '../../../src/kit/index.js';

const TicketingError = builtOnce(() =>
  z.object({
    error: z
      .union([z.string(), z.object({ title: z.string().optional(), message: z.string().optional() })])
      .optional(),
    description: z.string().optional(),
    details: z
      .record(z.string(), z.array(z.object({ description: z.string().optional() }).loose()))
      .optional(),
  }),
);

/** Reads `{error, description, details: {field: [{description}]}}`: code, message and the fields named. */
export function parseTicketingError(body: unknown): ParsedProviderError {
  if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
  const parsed = TicketingError().safeParse(body);
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
  return definedOnly({
    message: message || undefined,
    providerCode: providerCode || undefined,
    fields: fields.length ? fields : undefined,
  });
}

/**
 * What to check after an authentication error, in the spec's order
 * (integrations.md, Authentication 1): the subdomain, the account's
 * permissions, then a fresh OAuth flow.
 */
export const TICKETING_AUTH_HINT =
  "Check, in this order: the connection's subdomain (it names the account); that the signed-in account has the Admin or Agent role; then disconnect and reconnect (toolsteps connect ticketing --id <id>) for a fresh OAuth flow.";

/** Only admins manage webhooks, business rules and account configuration; agents work tickets. */
const ADMIN_PATHS =
  /^\/api\/v2\/(webhooks|triggers|automations|macros|ticket_fields|user_fields|organization_fields|groups|brands|custom_roles|account)\b/;

function neededRole(path: string): 'Admin' | 'Agent' {
  return ADMIN_PATHS.test(path) ? 'Admin' : 'Agent';
}

/**
 * 403 `FeatureNotAvailable`: the plan lacks triggers or an admin feature.
 * Any other 403: the account lacks a role (the spec: the authorizing account
 * should have Admin or Agent permissions), named from the path. 401: the
 * spec's order of checks as the hint.
 */
export function classifyTicketingError(failure: ProviderFailure, parsed: ParsedProviderError) {
  const where = `${failure.method} ${failure.path}`;
  const said = parsed.message ? `: ${parsed.message}` : '';
  const base = {
    status: failure.status,
    sent: true as const,
    providerCode: parsed.providerCode,
    providerMessage: parsed.message,
    fields: parsed.fields,
    context: { method: failure.method, path: failure.path },
  };
  if (failure.status === 403 && parsed.providerCode === 'FeatureNotAvailable') {
    return new PlanError(`${where} needs a higher provider plan${said}.`, base);
  }
  if (failure.status === 403) {
    const role = neededRole(failure.path);
    return new PermissionError(
      `${where} was refused (403): the connected account lacks the ${role} role this needs${role === 'Agent' ? ' (Agent or Admin)' : ''}, or the connection was granted read-only access${said}.`,
      {
        ...base,
        hint: `Reconnect with an account that has the ${role} role${role === 'Agent' ? ' (or Admin)' : ''} and grant read and write access: toolsteps connect ticketing --id <id>.`,
      },
    );
  }
  if (failure.status === 401) {
    return new AuthError(`${where} was refused as unauthenticated (401)${said}.`, {
      ...base,
      hint: TICKETING_AUTH_HINT,
    });
  }
  return undefined;
}
