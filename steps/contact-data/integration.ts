import { z } from 'zod';
import { CreditError, PlanError } from '../../src/errors.js';
import { intHeader } from '../../src/http/rate-limit.js';
import { defineIntegration } from '../../src/integration.js';

/** The provider's API host; a connection's `baseUrl` override (sandbox, proxy) replaces it. */
export const CONTACT_DATA_HOST = 'https://api.lusha.com';

/**
 * Every provider path of the integration, in one table, so it can be
 * re-pointed. The first four are the spec's. The spec does not show the
 * search paths: `/person/search` and `/company/search` are our choice,
 * following the `/person`, `/person/bulk` pattern. `/account/usage` is
 * reached only through API Call (a GET that costs nothing).
 */
export const contactDataPaths = {
  person: '/person',
  personBulk: '/person/bulk',
  company: '/company',
  companyBulk: '/company/bulk',
  personSearch: '/person/search',
  companySearch: '/company/search',
  usage: '/account/usage',
} as const;

/** The provider caps a bulk request at 100 records (a 400 above it). */
export const BULK_MAX_RECORDS = 100;

/** The provider names its quota windows by length and never says when they refill. */
const QUOTA_WINDOWS = [
  ['minute', 60_000],
  ['hourly', 3_600_000],
  ['daily', 86_400_000],
] as const;

/** `{statusCode, message, errors[]}`; entries of `errors` are strings or `{field, message}`. */
const ContactDataErrorBody = z.object({
  statusCode: z.number().optional(),
  message: z.string().optional(),
  errors: z
    .array(
      z.union([
        z.string(),
        z
          .object({
            field: z.string().optional(),
            property: z.string().optional(),
            message: z.string().optional(),
          })
          .loose(),
      ]),
    )
    .optional(),
});

export const contactData = defineIntegration({
  id: 'contact_data',
  title: 'Contact data (Lusha)',
  status: 'beta',
  description:
    'B2B contact and company data: find and enrich people (emails, phones, job title, company, location) and companies (size, industry, employee count, technologies, revenue), one at a time or in bulk, and search both. Paid: lookups cost credits.',
  keywords: [
    'lusha',
    'contact data',
    'enrichment',
    'enrich',
    'b2b',
    'people',
    'contacts',
    'companies',
    'firmographics',
    'prospecting',
    'leads',
    'email finder',
    'phone',
  ],
  connection: {
    kind: 'api_key',
    fields: z.object({}),
    requiredSecrets: ['apiKey'],
  },
  baseUrl: () => CONTACT_DATA_HOST,
  // The provider reads the key from an `api_key` header (not Authorization).
  authHeaders: ({ connection }) => ({ api_key: connection.secrets.apiKey ?? '' }),
  credentialHeaders: ['api_key'],
  /**
   * `x-rate-limit-{minute,hourly,daily}` give each window's size and
   * `x-{minute,hourly,daily}-requests-left` what is left; no header says
   * when a window refills and a 429 carries no Retry-After, so each window
   * carries its length and the gate estimates the refill from it.
   */
  readRateLimit: (headers, now) => {
    const windows = QUOTA_WINDOWS.flatMap(([name, windowMs]) => {
      const remaining = intHeader(headers, `x-${name}-requests-left`);
      if (remaining === undefined) return [];
      const limit = intHeader(headers, `x-rate-limit-${name}`);
      return [{ name, remaining, windowMs, ...(limit === undefined ? {} : { limit }) }];
    });
    return windows.length ? { observedAt: now, windows } : undefined;
  },
  parseError: (body) => {
    if (typeof body === 'string') return { message: body.trim().slice(0, 300) };
    const parsed = ContactDataErrorBody.safeParse(body);
    if (!parsed.success) return {};
    const fields = (parsed.data.errors ?? []).flatMap((entry) => {
      if (typeof entry === 'string') return [{ path: 'body', message: entry }];
      return [{ path: entry.field ?? entry.property ?? 'body', message: entry.message ?? 'invalid' }];
    });
    const fieldText = fields.map((field) => `${field.path}: ${field.message}`).join('; ');
    const message = [parsed.data.message, fieldText].filter(Boolean).join(' - ');
    return {
      ...(message ? { message } : {}),
      ...(parsed.data.statusCode === undefined ? {} : { providerCode: String(parsed.data.statusCode) }),
      ...(fields.length ? { fields } : {}),
    };
  },
  classifyError: (failure, parsed) => {
    const where = `${failure.method} ${failure.path}`;
    const said = parsed.message ? `: ${parsed.message}` : '';
    const known = {
      sent: true,
      providerMessage: parsed.message,
      context: { method: failure.method, path: failure.path },
    };
    // 402: the key's credits are spent. Never retried: trying again cannot help until credits are added.
    if (failure.status === 402) {
      return new CreditError(`${where} was refused: the account is out of credits (402)${said}.`, {
        ...known,
        status: 402,
        hint: 'Add credits to the provider account, then run the step again.',
      });
    }
    // 403: the provider's plan for this key does not include the endpoint.
    if (failure.status === 403) {
      return new PlanError(`${where} is not included in the provider plan of this API key (403)${said}.`, {
        ...known,
        status: 403,
        hint: 'Upgrade the provider plan, or use the single-record steps.',
      });
    }
    return undefined;
  },
  apiCall: { methods: ['GET', 'POST'] },
  paths: contactDataPaths,
});
