import type { RouteRequest, Router } from '../router.js';
import { isJsonObject, json, type Reply } from '../sandbox-http.js';
import type { ContactDataAssumptions } from './contact-data-assumptions.js';
import type { ContactDataDirectory } from './contact-data-directory.js';
import {
  type ContactDataAccount,
  charge,
  companyLookup,
  type Lookup,
  personLookup,
} from './contact-data-lookups.js';
import type { DirectoryCompany } from './contact-data-types.js';
import { companyWire, contains, failure, NO_CREDITS, personPreview, str } from './contact-data-wire.js';

/** The provider caps a bulk request at 100 records (400 above it). */
export const BULK_CAP = 100;
/** Search is charged by result volume: one credit per started block of this many results. */
export const SEARCH_RESULTS_PER_CREDIT = 25;
const SEARCH_DEFAULT_LIMIT = 25;
const SEARCH_MAX_LIMIT = 100;

type AccountRequest = RouteRequest<ContactDataAccount>;
type ProblemOf = (value: unknown) => string | undefined;

function personProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'must be an object';
  if (str(value, 'email') || str(value, 'profileUrl')) return undefined;
  if (str(value, 'firstName') && str(value, 'lastName') && str(value, 'company')) return undefined;
  return 'needs email, profileUrl, or firstName with lastName and company';
}

function companyProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return 'must be an object';
  return str(value, 'domain') || str(value, 'name') ? undefined : 'needs domain or name';
}

/** One record: 402 when the key cannot pay for it, else the record or its in-body error. */
function single(problemOf: ProblemOf, lookup: Lookup) {
  return (request: AccountRequest): Reply => {
    const problem = problemOf(request.body);
    if (problem) return failure(400, 'Bad request', [{ field: 'body', message: problem }]);
    const account = request.caller;
    if (account.balance < 1) return failure(402, 'Your account is out of credits');
    const result = lookup(account, request.body as Record<string, unknown>);
    if (result.error === NO_CREDITS) return failure(402, 'Not enough credits left for this request');
    return json(200, result);
  };
}

/** Up to BULK_CAP records, each charged when revealed; one bad record refuses the whole request. */
function bulk(problemOf: ProblemOf, lookup: Lookup) {
  return (request: AccountRequest): Reply => {
    const records = request.body;
    if (!Array.isArray(records) || records.length === 0) {
      return failure(400, 'Bad request', [
        { field: 'body', message: 'must be a non-empty array of records' },
      ]);
    }
    if (records.length > BULK_CAP) {
      return failure(400, `A bulk request takes at most ${BULK_CAP} records, got ${records.length}`, [
        { field: 'body', message: `at most ${BULK_CAP} records` },
      ]);
    }
    const errors = records.flatMap((record, index) => {
      const problem = problemOf(record);
      return problem ? [{ field: `body[${index}]`, message: problem }] : [];
    });
    if (errors.length) return failure(400, 'Bad request', errors);
    const account = request.caller;
    if (account.balance < 1) return failure(402, 'Your account is out of credits');
    const results = records.map((record, index) => ({
      index,
      ...lookup(account, record as Record<string, unknown>),
    }));
    const creditsCharged = results.reduce((sum, result) => sum + result.creditsCharged, 0);
    return json(200, { results, creditsCharged });
  };
}

/** `{filters, limit}`; at least one filter; charged per started block of 25 results. */
function search<T>(
  filterNames: readonly string[],
  matchAll: (filters: Record<string, string | undefined>) => T[],
  wire: (item: T) => unknown,
) {
  return (request: AccountRequest): Reply => {
    const body = isJsonObject(request.body) ? request.body : {};
    const rawFilters = isJsonObject(body.filters) ? body.filters : {};
    const filters = Object.fromEntries(filterNames.map((name) => [name, str(rawFilters, name)]));
    if (Object.values(filters).every((value) => value === undefined)) {
      return failure(400, 'Bad request', [
        { field: 'filters', message: `give at least one of ${filterNames.join(', ')}` },
      ]);
    }
    const limit = body.limit === undefined ? SEARCH_DEFAULT_LIMIT : body.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
      return failure(400, 'Bad request', [
        { field: 'limit', message: `an integer from 1 to ${SEARCH_MAX_LIMIT}` },
      ]);
    }
    const matches = matchAll(filters);
    const results = matches.slice(0, limit);
    const cost = Math.ceil(results.length / SEARCH_RESULTS_PER_CREDIT);
    const account = request.caller;
    if (account.balance < cost) return failure(402, 'Not enough credits left for this search');
    charge(account, cost);
    return json(200, { results: results.map(wire), total: matches.length, creditsCharged: cost });
  };
}

function companyMatches(company: DirectoryCompany, filters: Record<string, string | undefined>): boolean {
  return (
    (contains(company.name, filters.company) || contains(company.domain, filters.company)) &&
    contains(company.industry, filters.industry) &&
    contains(Object.values(company.location).join(', '), filters.location)
  );
}

/** Every endpoint of the contact-data provider, over the generated directory; the search and usage paths are assumed. */
export function contactDataRoutes(
  router: Router<ContactDataAccount>,
  directory: ContactDataDirectory,
  paths: ContactDataAssumptions,
): void {
  const person = personLookup(directory);
  const company = companyLookup(directory);
  router
    .on('POST', '/person', single(personProblem, person))
    .on('POST', '/person/bulk', bulk(personProblem, person))
    .on('POST', '/company', single(companyProblem, company))
    .on('POST', '/company/bulk', bulk(companyProblem, company))
    .on(
      'POST',
      paths.person_search_path,
      search(
        ['jobTitle', 'company', 'location', 'industry'],
        (filters) =>
          directory.people.filter(
            (candidate) =>
              contains(candidate.jobTitle, filters.jobTitle) &&
              companyMatches(candidate.company, { ...filters, location: undefined }) &&
              contains(Object.values(candidate.location).join(', '), filters.location),
          ),
        personPreview,
      ),
    )
    .on(
      'POST',
      paths.company_search_path,
      search(
        ['company', 'location', 'industry'],
        (filters) => directory.companies.filter((candidate) => companyMatches(candidate, filters)),
        companyWire,
      ),
    )
    .on('GET', paths.usage_path, (request) => {
      const account = request.caller;
      return json(200, { plan: account.plan, credits: { balance: account.balance, used: account.spent } });
    });
}
