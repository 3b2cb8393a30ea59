import * as z from 'zod';
import { builtOnce, definedOnly, defineIntegration, intHeader } from '../../src/kit/index.js';
import { contactDataConnectionCheck } from './lib/connection-check.js';
import { contactDataPaths } from './lib/paths.js';
import { classifyContactDataError, parseContactDataError } from './lib/provider-errors.js';

/** The provider's API host; a connection's `baseUrl` override (sandbox, proxy) replaces it. */
export const CONTACT_DATA_HOST = 'https://api.lusha.com';

/** The provider names its quota windows by length and never says when they refill. */
const QUOTA_WINDOWS = [
  ['minute', 60_000],
  ['hourly', 3_600_000],
  ['daily', 86_400_000],
] as const;

/** The connection's public fields: built when first read (issue 37), not when the catalogue is imported. */
const ContactDataConnectionFields = builtOnce(() => z.object({}));

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
    get fields() {
      return ContactDataConnectionFields();
    },
    requiredSecrets: ['apiKey'],
    revocation: {
      unavailable: "an API key: revoke it in the provider's dashboard if it should stop working",
    },
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
      return [definedOnly({ name, remaining, windowMs, limit })];
    });
    return windows.length ? { observedAt: now, windows } : undefined;
  },
  parseError: parseContactDataError,
  classifyError: classifyContactDataError,
  apiCall: { methods: ['GET', 'POST'] },
  paths: contactDataPaths,
  connectionCheck: contactDataConnectionCheck,
});
