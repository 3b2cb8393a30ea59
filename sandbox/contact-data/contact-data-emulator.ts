import type { Clock } from '../../src/clock.js';
import type { Emulator } from '../emulator.js';
import { Router } from '../router.js';
import { json, type Reply, type SandboxRequest, withHeaders } from '../sandbox-http.js';
import {
  ContactDataDirectory,
  type DirectoryCompany,
  type DirectoryPerson,
} from './contact-data-directory.js';
import { type ContactDataQuota, KeyQuotas } from './key-quotas.js';

/** The key `toolsteps sandbox` and the demo connect with. */
export const CONTACT_DATA_SANDBOX_KEY = 'cd_sandbox_key_0001';

/** The provider caps a bulk request at 100 records (400 above it). */
export const BULK_CAP = 100;
/** Search is charged by result volume: one credit per started block of this many results. */
export const SEARCH_RESULTS_PER_CREDIT = 25;
const SEARCH_DEFAULT_LIMIT = 25;
const SEARCH_MAX_LIMIT = 100;

export type ContactDataPlan = 'basic' | 'pro';

export interface ContactDataKeyOptions {
  credits: number;
  /** `basic` keys may not use bulk or search endpoints (403), as lower plans of the provider. */
  plan?: ContactDataPlan;
}

export interface ContactDataEmulatorOptions {
  clock: Clock;
  /** Accepted keys and their balances; default: the sandbox key with 1,000 credits on the pro plan. */
  keys?: Record<string, ContactDataKeyOptions>;
  /** Requests per key per window; default 60 a minute, 1,000 an hour, 10,000 a day. */
  quota?: Partial<ContactDataQuota>;
}

interface Account {
  balance: number;
  spent: number;
  plan: ContactDataPlan;
}

type RecordResult = {
  data: Record<string, unknown> | null;
  error?: { code: string; message: string };
  creditsCharged: number;
};

/** The provider's error body: `{statusCode, message, errors[]}`. */
function failure(status: number, message: string, errors: { field: string; message: string }[] = []): Reply {
  return json(status, { statusCode: status, message, errors });
}

const NOT_FOUND_PERSON = { code: 'not_found', message: 'Contact not found' };
const NOT_FOUND_COMPANY = { code: 'not_found', message: 'Company not found' };
const NO_CREDITS = { code: 'insufficient_credits', message: 'Not enough credits left to reveal this record' };

function str(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function companyWire(company: DirectoryCompany) {
  return { ...company, technologies: [...company.technologies], revenue: { ...company.revenue } };
}

function personWire(person: DirectoryPerson) {
  return {
    id: person.id,
    firstName: person.firstName,
    lastName: person.lastName,
    fullName: person.fullName,
    emailAddresses: person.emailAddresses.map((address) => ({ ...address })),
    phoneNumbers: person.phoneNumbers.map((phone) => ({ ...phone })),
    jobTitle: person.jobTitle,
    company: { id: person.company.id, name: person.company.name, domain: person.company.domain },
    location: { ...person.location },
    profileUrl: person.profileUrl,
  };
}

function personPreview(person: DirectoryPerson) {
  const { emailAddresses: _emails, phoneNumbers: _phones, ...preview } = personWire(person);
  return preview;
}

/** A matched person costs 1 credit, 2 when phone numbers are revealed too. */
export function personCharge(person: DirectoryPerson): number {
  return person.phoneNumbers.length > 0 ? 2 : 1;
}

function contains(haystack: string, needle: string | undefined): boolean {
  return needle === undefined || haystack.toLowerCase().includes(needle.trim().toLowerCase());
}

/**
 * The contact and company data provider (C): `POST /person`, `/company`,
 * their `/bulk` forms (at most 100 records, charged per revealed record),
 * `/person/search` and `/company/search` (our chosen paths: the spec does
 * not show them) and `GET /account/usage`. The key travels in an `api_key`
 * header; errors are `{statusCode, message, errors[]}`; a record that is not
 * found is HTTP 200 with an error inside it and costs nothing; 402 when the
 * key's credits are gone, 403 when its plan lacks the endpoint; quotas per
 * minute, hour and day in `x-rate-limit-*` / `x-*-requests-left` headers,
 * and a 429 without Retry-After.
 *
 * Credits are reported in every paid answer as `creditsCharged` (per record
 * and in total), exactly what was taken from the key's balance.
 */
export class ContactDataEmulator implements Emulator {
  readonly mount = 'contact-data';
  readonly directory = new ContactDataDirectory();
  readonly quotas: KeyQuotas;
  private accounts = new Map<string, Account>();
  private readonly api = new Router();

  constructor(private readonly options: ContactDataEmulatorOptions) {
    this.quotas = new KeyQuotas(options.clock, {
      minute: 60,
      hourly: 1_000,
      daily: 10_000,
      ...options.quota,
    });
    this.seedKeys();
    this.routes();
  }

  private seedKeys(): void {
    const keys = this.options.keys ?? { [CONTACT_DATA_SANDBOX_KEY]: { credits: 1_000 } };
    for (const [key, settings] of Object.entries(keys)) this.addKey(key, settings);
  }

  /** Accepts a new key (or resets one) with a balance and a plan. */
  addKey(key: string, settings: ContactDataKeyOptions): void {
    this.accounts.set(key, { balance: settings.credits, spent: 0, plan: settings.plan ?? 'pro' });
  }

  setBalance(key: string, credits: number): void {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`No sandbox key "${key}".`);
    account.balance = credits;
  }

  balance(key: string): number | undefined {
    return this.accounts.get(key)?.balance;
  }

  /** Credits charged to a key since it was added. */
  spent(key: string): number | undefined {
    return this.accounts.get(key)?.spent;
  }

  reset(): void {
    this.accounts.clear();
    this.quotas.reset();
    this.seedKeys();
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    const given = request.headers.api_key;
    const key = typeof given === 'string' ? given : undefined;
    const account = key === undefined ? undefined : this.accounts.get(key);
    if (!key || !account) {
      // Like some real APIs, it echoes what it was given, in the message and per field: the client must redact it.
      return key
        ? failure(401, `Invalid API key "${key}"`, [{ field: 'api_key', message: `unknown key ${key}` }])
        : failure(401, 'Missing api_key header', [{ field: 'api_key', message: 'required' }]);
    }
    const quota = this.quotas.consume(key);
    if (!quota.allowed) {
      // No Retry-After: the provider does not promise one.
      return withHeaders(
        failure(429, `Too many requests: the ${quota.spent} quota of this key is spent`),
        quota.headers,
      );
    }
    const found = this.api.match(request);
    let reply: Reply;
    if (!found) reply = failure(404, `Cannot ${request.method} ${request.path}`);
    else if (found === 'method')
      reply = failure(405, `Method ${request.method} not allowed on ${request.path}`);
    else {
      const restricted = request.path.endsWith('/bulk') || request.path.endsWith('/search');
      if (restricted && account.plan !== 'pro') {
        reply = failure(403, 'Your plan does not include bulk or search endpoints; upgrade to use them');
      } else {
        reply = await found.handler({ ...request, params: found.params, account } as SandboxRequest);
      }
    }
    return withHeaders(reply, quota.headers);
  }

  private charge(account: Account, credits: number): void {
    account.balance -= credits;
    account.spent += credits;
  }

  /** Finds one person; charges when found and affordable. */
  private lookupPerson(account: Account, body: Record<string, unknown>): RecordResult {
    const email = str(body, 'email');
    const profileUrl = str(body, 'profileUrl');
    const [firstName, lastName, company] = [
      str(body, 'firstName'),
      str(body, 'lastName'),
      str(body, 'company'),
    ];
    const person = email
      ? this.directory.personByEmail(email)
      : profileUrl
        ? this.directory.personByProfileUrl(profileUrl)
        : this.directory.personByName(firstName!, lastName!, company!);
    if (!person) return { data: null, error: NOT_FOUND_PERSON, creditsCharged: 0 };
    const cost = personCharge(person);
    if (account.balance < cost) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
    this.charge(account, cost);
    return { data: personWire(person), creditsCharged: cost };
  }

  private lookupCompany(account: Account, body: Record<string, unknown>): RecordResult {
    const domain = str(body, 'domain');
    const name = str(body, 'name');
    const company = domain ? this.directory.companyByDomain(domain) : this.directory.companyByName(name!);
    if (!company) return { data: null, error: NOT_FOUND_COMPANY, creditsCharged: 0 };
    if (account.balance < 1) return { data: null, error: NO_CREDITS, creditsCharged: 0 };
    this.charge(account, 1);
    return { data: companyWire(company), creditsCharged: 1 };
  }

  private routes(): void {
    const accountOf = (request: SandboxRequest) => (request as SandboxRequest & { account: Account }).account;

    const personProblem = (value: unknown): string | undefined => {
      if (!isObject(value)) return 'must be an object';
      if (str(value, 'email') || str(value, 'profileUrl')) return undefined;
      if (str(value, 'firstName') && str(value, 'lastName') && str(value, 'company')) return undefined;
      return 'needs email, profileUrl, or firstName with lastName and company';
    };
    const companyProblem = (value: unknown): string | undefined => {
      if (!isObject(value)) return 'must be an object';
      return str(value, 'domain') || str(value, 'name') ? undefined : 'needs domain or name';
    };

    const single =
      (
        problemOf: (value: unknown) => string | undefined,
        lookup: (account: Account, body: Record<string, unknown>) => RecordResult,
      ) =>
      (request: SandboxRequest): Reply => {
        const problem = problemOf(request.body);
        if (problem) return failure(400, 'Bad request', [{ field: 'body', message: problem }]);
        const account = accountOf(request);
        if (account.balance < 1) return failure(402, 'Your account is out of credits');
        const result = lookup(account, request.body as Record<string, unknown>);
        if (result.error === NO_CREDITS) return failure(402, 'Not enough credits left for this request');
        return json(200, result);
      };

    const bulk =
      (
        problemOf: (value: unknown) => string | undefined,
        lookup: (account: Account, body: Record<string, unknown>) => RecordResult,
      ) =>
      (request: SandboxRequest): Reply => {
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
        const account = accountOf(request);
        if (account.balance < 1) return failure(402, 'Your account is out of credits');
        const results = records.map((record, index) => ({
          index,
          ...lookup(account, record as Record<string, unknown>),
        }));
        const creditsCharged = results.reduce((sum, result) => sum + result.creditsCharged, 0);
        return json(200, { results, creditsCharged });
      };

    /** `{filters, limit}`; at least one filter; charged per started block of 25 results. */
    const search =
      <T>(
        filterNames: readonly string[],
        matchAll: (filters: Record<string, string | undefined>) => T[],
        wire: (item: T) => unknown,
      ) =>
      (request: SandboxRequest): Reply => {
        const body = isObject(request.body) ? request.body : {};
        const rawFilters = isObject(body.filters) ? body.filters : {};
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
        const account = accountOf(request);
        if (account.balance < cost) return failure(402, 'Not enough credits left for this search');
        this.charge(account, cost);
        return json(200, { results: results.map(wire), total: matches.length, creditsCharged: cost });
      };

    const companyMatches = (company: DirectoryCompany, filters: Record<string, string | undefined>) =>
      (contains(company.name, filters.company) || contains(company.domain, filters.company)) &&
      contains(company.industry, filters.industry) &&
      contains(Object.values(company.location).join(', '), filters.location);

    this.api
      .on(
        'POST',
        '/person',
        single(personProblem, (account, body) => this.lookupPerson(account, body)),
      )
      .on(
        'POST',
        '/person/bulk',
        bulk(personProblem, (account, body) => this.lookupPerson(account, body)),
      )
      .on(
        'POST',
        '/company',
        single(companyProblem, (account, body) => this.lookupCompany(account, body)),
      )
      .on(
        'POST',
        '/company/bulk',
        bulk(companyProblem, (account, body) => this.lookupCompany(account, body)),
      )
      .on(
        'POST',
        '/person/search',
        search(
          ['jobTitle', 'company', 'location', 'industry'],
          (filters) =>
            this.directory.people.filter(
              (person) =>
                contains(person.jobTitle, filters.jobTitle) &&
                companyMatches(person.company, { ...filters, location: undefined }) &&
                contains(Object.values(person.location).join(', '), filters.location),
            ),
          personPreview,
        ),
      )
      .on(
        'POST',
        '/company/search',
        search(
          ['company', 'location', 'industry'],
          (filters) => this.directory.companies.filter((company) => companyMatches(company, filters)),
          companyWire,
        ),
      )
      .on('GET', '/account/usage', (request) => {
        const account = accountOf(request);
        return json(200, { plan: account.plan, credits: { balance: account.balance, used: account.spent } });
      });
  }
}
