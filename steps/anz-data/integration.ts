import * as z from 'zod';
import { builtOnce, defineIntegration, readQuotaHeaders } from '../../src/kit/index.js';
import { anzDataConnectionCheck } from './lib/connection-check.js';
import { anzDataApi } from './lib/operations.js';
import { parseAnzDataError } from './lib/provider-errors.js';

/**
 * The provider's name is not public to this project, so the default host is
 * a reserved `.example` name (RFC 2606) that never resolves: a connection
 * without a `baseUrl` override cannot send its key anywhere. Real accounts
 * and the sandbox (`<sandbox url>/anz-data`) set `baseUrl`.
 */
export const ANZ_DATA_DEFAULT_HOST = 'https://api.anz-data.example';

/** The connection's public fields: built when first read (issue 37), not when the catalogue is imported. */
const AnzDataConnectionFields = builtOnce(() => z.object({}));

export const anzData = defineIntegration({
  id: 'anz_data',
  title: 'ANZ B2B Data',
  description:
    'Australian and New Zealand B2B data: enrich people and companies (with ABN), search people by company and role, and call any endpoint of the data API. Lookups cost credits.',
  keywords: [
    'anz',
    'anz data',
    'australia',
    'new zealand',
    'b2b',
    'contact data',
    'firmographics',
    'leads',
    'prospecting',
  ],
  status: 'beta',
  connection: {
    kind: 'api_key',
    get fields() {
      return AnzDataConnectionFields();
    },
    requiredSecrets: ['apiKey'],
    revocation: {
      unavailable: "an API key: revoke it in the provider's dashboard if it should stop working",
    },
  },
  baseUrl: () => ANZ_DATA_DEFAULT_HOST,
  // Provider facts: `Authorization: Bearer <key>`.
  authHeaders: ({ connection }) => ({ authorization: `Bearer ${connection.secrets.apiKey}` }),
  credentialHeaders: ['authorization'],
  /** Per-minute quota per key in the older IETF draft fields; the reset is in seconds. */
  readRateLimit: readQuotaHeaders({
    window: 'minute',
    remaining: ['ratelimit-remaining'],
    limit: ['ratelimit-limit'],
    reset: 'ratelimit-reset',
    resetFormat: 'seconds_from_now',
  }),
  parseError: parseAnzDataError,
  apiCall: { methods: ['GET', 'POST'] },
  paths: Object.fromEntries(Object.entries(anzDataApi).map(([name, operation]) => [name, operation.path])),
  connectionCheck: anzDataConnectionCheck,
});
