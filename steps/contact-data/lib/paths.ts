/**
 * Every provider path of the integration, in one table, so it can be
 * re-pointed. The first four are the spec's. The spec does not show the
 * search paths: `/person/search` and `/company/search` are our choice,
 * following the `/person`, `/person/bulk` pattern. `/account/usage` is
 * reached through API Call and `connections test` (a GET that costs nothing).
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
