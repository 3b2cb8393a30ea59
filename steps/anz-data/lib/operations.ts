import type { HttpMethod, HttpRequest } from '../../../src/kit/index.js';

interface Operation {
  method: HttpMethod;
  path: string;
  /** Our snake_case input name to the provider's field name; sent as JSON body, or as query for GET. */
  fields: Readonly<Record<string, string>>;
  /** Paid lookups are never replayed once they may have reached the provider (see `anzRequest`). */
  paid: boolean;
}

/**
 * Every path and field name this integration sends, in one table. The spec's
 * paths are implemented; the provider's own public API differs (GET
 * `/company` and `/people` with query parameters), so re-pointing means
 * editing this table only: a GET operation sends its fields as query.
 */
export const anzDataApi = {
  enrichPerson: {
    method: 'POST',
    path: '/enrich/person',
    fields: { profile_url: 'profile_url', email: 'email', profile_slug: 'profile_slug' },
    paid: true,
  },
  enrichCompany: {
    method: 'POST',
    path: '/enrich/company',
    fields: { profile_url: 'profile_url', domain: 'domain', abn: 'abn', website: 'website' },
    paid: true,
  },
  searchPeople: {
    method: 'POST',
    path: '/search/people',
    fields: {
      company: 'company',
      position: 'position',
      seniority: 'seniority',
      department: 'department',
      // integrations.md: "Field names for the location filter and the company size filter: not shown."
      // These are our names for them; re-pointing to the provider's means editing these two.
      location: 'location',
      company_size: 'company_size',
      limit: 'limit',
    },
    paid: true,
  },
  /** Free balance check; our choice of path (the spec shows none), used by the sandbox and the API Call step. */
  credits: { method: 'GET', path: '/credits', fields: {}, paid: false },
} as const satisfies Record<string, Operation>;

export type AnzOperation = keyof typeof anzDataApi;
type FieldsOf<Name extends AnzOperation> = keyof (typeof anzDataApi)[Name]['fields'];

/**
 * Response headers the provider reports charges in. The spec does not name
 * them; the sandbox sends these on every answer of a paid path.
 */
export const anzDataCreditHeaders = {
  charged: 'x-credits-charged',
  remaining: 'x-credits-remaining',
} as const;

/** The provider caps one search answer at this many people. */
export const SEARCH_LIMIT_MAX = 100;

/**
 * Builds the request for one operation from our input names. Paid lookups
 * are marked non-idempotent: a lookup charges credits, so sending it twice
 * may charge twice. The transport then replays one only when the provider
 * provably did no work (429, 503, or a connection that never opened), never
 * after a 5xx or a dropped connection that may have followed a charge.
 */
export function anzRequest<Name extends AnzOperation>(
  name: Name,
  values: Partial<Record<FieldsOf<Name>, string | number | undefined>>,
): HttpRequest {
  const operation: Operation = anzDataApi[name];
  const payload: Record<string, string | number> = {};
  for (const [ours, theirs] of Object.entries(operation.fields)) {
    const value = (values as Record<string, string | number | undefined>)[ours];
    if (value !== undefined) payload[theirs] = value;
  }
  const sendsQuery = operation.method === 'GET' || operation.method === 'HEAD';
  return {
    method: operation.method,
    path: operation.path,
    ...(sendsQuery ? { query: payload } : { body: payload }),
    idempotent: !operation.paid,
  };
}
