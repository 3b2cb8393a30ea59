import { randomBytes } from 'node:crypto';
import type { Clock } from '../../src/model/clock.js';
import { definedOnly } from '../../src/values/defined-only.js';
import type { Emulator } from '../emulator.js';
import { FixedWindowLimiter } from '../fixed-window-limiter.js';
import { draftRateLimitHeaders, secondsToReset } from '../rate-limit-headers.js';
import { type RouteRequest, Router } from '../router.js';
import {
  bearerToken,
  json,
  objectBody,
  type Reply,
  type SandboxRequest,
  withHeaders,
} from '../sandbox-http.js';
import { AnzDataAssumptions } from './anz-data-assumptions.js';
import {
  abnChecksumOk,
  companyJson,
  findCompany,
  findPerson,
  hasContacts,
  personJson,
  type SearchCriteria,
  searchPeople,
} from './anz-data-directory.js';
import { CreditLedger } from './credit-ledger.js';

export interface AnzDataEmulatorOptions {
  clock: Clock;
  /** Requests per minute per key. */
  requestsPerMinute?: number;
  /** Credits a key starts with (the sandbox key, and `issueKey` without an amount). */
  startingCredits?: number;
  /** What the spec and the provider facts leave open (anz-data-assumptions.ts); defaults when absent. */
  assumptions?: AnzDataAssumptions;
}

/** A key the sandbox always knows, for the CLI and the demo: `--api-key` it in. */
export const ANZ_DATA_SANDBOX_KEY = 'anz_sandbox_key_0001';

const PERSON_KEYS = ['profile_url', 'email', 'profile_slug'];
const COMPANY_KEYS = ['profile_url', 'domain', 'abn', 'website'];
// Location and company size: names of our choosing (the spec says the filters exist, not their names).
const SEARCH_FILTERS = [
  'company',
  'position',
  'seniority',
  'department',
  'location',
  'company_size',
] as const;
const SEARCH_DEFAULT_LIMIT = 10;
const SEARCH_MAX_LIMIT = 100;

function problem(status: number, code: string, message: string, param?: string): Reply {
  return json(status, { error: definedOnly({ code, message, param }) });
}

/** A reply without the credit headers, for an account assumed to report none. */
function withoutCreditHeaders(reply: Reply): Reply {
  const { 'x-credits-charged': _charged, ...headers } = reply.headers ?? {};
  return { ...reply, headers };
}

/** The anz-data emulator knows its callers by their API key. */
type KeyedRequest = RouteRequest<string>;

/** The one lookup key of a body, or the 400 the provider answers. */
function oneLookupKey(body: Record<string, unknown>, keys: string[]): [string, string] | Reply {
  const given = keys.filter((key) => body[key] !== undefined && body[key] !== null && body[key] !== '');
  if (given.length !== 1) {
    return problem(400, 'invalid_request', `Provide exactly one of ${keys.join(', ')}.`, given[1]);
  }
  const key = given[0] as string;
  const value = body[key];
  if (typeof value !== 'string') return problem(400, 'invalid_parameter', `${key} must be a string.`, key);
  return [key, value];
}

/**
 * The ANZ B2B data provider: person and company enrichment and people
 * search on fake ANZ records, Bearer API keys (401 otherwise), credits per
 * key (charged only for a match, 402 when the balance is short), and a
 * per-minute quota per key with `RateLimit-*` headers and 429 + Retry-After.
 * Every answer says what it charged in `x-credits-charged` (0 unless a
 * lookup matched) and what is left in `x-credits-remaining`.
 */
export class AnzDataEmulator implements Emulator {
  readonly mount = 'anz-data';
  readonly limiter: FixedWindowLimiter;
  readonly ledger = new CreditLedger();
  private readonly api = new Router<string>();
  private readonly startingCredits: number;

  readonly assumptions: AnzDataAssumptions;

  constructor(private readonly options: AnzDataEmulatorOptions) {
    this.assumptions = options.assumptions ?? AnzDataAssumptions.parse({});
    this.limiter = new FixedWindowLimiter(options.clock, options.requestsPerMinute ?? 300, 60_000);
    this.startingCredits = options.startingCredits ?? 100;
    this.routes();
    this.reset();
  }

  reset(): void {
    this.ledger.reset();
    this.limiter.reset();
    this.ledger.open(ANZ_DATA_SANDBOX_KEY, this.startingCredits);
  }

  /** A new API key with its own balance, as the provider's account settings would issue. */
  issueKey(credits = this.startingCredits): string {
    const key = `anz_sbx_${randomBytes(12).toString('hex')}`;
    this.ledger.open(key, credits);
    return key;
  }

  /** Sets an API key's remaining credits, so a test can run a paid lookup into an empty balance. */
  setCredits(key: string, credits: number): void {
    this.ledger.open(key, credits);
  }

  /** The key's remaining credits, to check what a lookup was charged. */
  creditsOf(key: string): number {
    return this.ledger.balance(key);
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    const apiKey = bearerToken(request.headers);
    if (!apiKey) {
      return problem(401, 'missing_api_key', 'Send your API key as Authorization: Bearer <API key>.');
    }
    if (!this.ledger.has(apiKey)) {
      // Echoes the key as some providers do (the message is also the param's), so tests prove our side redacts it.
      return problem(401, 'invalid_api_key', `Invalid API key: ${apiKey}`, 'authorization');
    }
    const verdict = this.limiter.consume(apiKey);
    const now = this.options.clock.now();
    const { credit_headers, rate_limit_headers } = this.assumptions;
    const quota = rate_limit_headers === 'ratelimit' ? draftRateLimitHeaders(verdict, now) : {};
    if (!verdict.allowed) {
      return withHeaders(
        problem(429, 'rate_limited', `Rate limit of ${verdict.limit} requests per minute exceeded.`),
        { ...quota, 'retry-after': String(secondsToReset(verdict, now)) },
      );
    }
    const found = this.api.match(request);
    let reply: Reply;
    if (!found) reply = problem(404, 'not_found', `No endpoint ${request.method} ${request.path}.`);
    else if (found === 'method')
      reply = problem(405, 'method_not_allowed', `${request.method} is not allowed here.`);
    else reply = await this.api.run(found, request, apiKey);
    if (!credit_headers) return withHeaders(withoutCreditHeaders(reply), quota);
    // Every answer says what it charged (0 unless a lookup matched) and what is left.
    return withHeaders(reply, {
      ...quota,
      'x-credits-charged': '0',
      'x-credits-remaining': String(this.ledger.balance(apiKey)),
    });
  }

  /** Charges for an answer, or refuses it whole with 402 when the balance is short. */
  private charged(request: KeyedRequest, credits: number, body: unknown): Reply {
    const { caller: apiKey, path } = request;
    const balance = this.ledger.balance(apiKey);
    if (!this.ledger.spend(apiKey, path, credits, this.options.clock.now())) {
      return problem(
        402,
        'insufficient_credits',
        `This lookup costs ${credits} credit${credits === 1 ? '' : 's'}; the balance is ${balance}. Top up to continue.`,
      );
    }
    return json(200, body, { 'x-credits-charged': String(credits) });
  }

  private routes(): void {
    this.api
      .on('POST', '/enrich/person', (request) => {
        const body = objectBody(request);
        if (!body) return problem(400, 'invalid_request', 'The body must be a JSON object.');
        const lookup = oneLookupKey(body, PERSON_KEYS);
        if (!Array.isArray(lookup)) return lookup;
        const record = findPerson(...lookup);
        if (!record) return this.charged(request, 0, { match: false, person: null });
        // A profile costs 1 credit; contact details with it cost the second.
        return this.charged(request, hasContacts(record) ? 2 : 1, {
          match: true,
          person: personJson(record, true),
        });
      })
      .on('POST', '/enrich/company', (request) => {
        const body = objectBody(request);
        if (!body) return problem(400, 'invalid_request', 'The body must be a JSON object.');
        const lookup = oneLookupKey(body, COMPANY_KEYS);
        if (!Array.isArray(lookup)) return lookup;
        if (lookup[0] === 'abn' && !abnChecksumOk(lookup[1].replace(/\s+/g, ''))) {
          return problem(400, 'invalid_parameter', 'abn is not a valid Australian Business Number.', 'abn');
        }
        const record = findCompany(...lookup);
        if (!record) return this.charged(request, 0, { match: false, company: null });
        return this.charged(request, 1, { match: true, company: companyJson(record) });
      })
      .on('POST', '/search/people', (request) => {
        const body = objectBody(request);
        if (!body) return problem(400, 'invalid_request', 'The body must be a JSON object.');
        const criteria: SearchCriteria = {};
        for (const filter of SEARCH_FILTERS) {
          const value = body[filter];
          if (value === undefined || value === null || value === '') continue;
          if (typeof value !== 'string')
            return problem(400, 'invalid_parameter', `${filter} must be a string.`, filter);
          criteria[filter] = value;
        }
        if (!Object.keys(criteria).length) {
          return problem(400, 'invalid_request', `Provide at least one of ${SEARCH_FILTERS.join(', ')}.`);
        }
        const limit = body.limit ?? SEARCH_DEFAULT_LIMIT;
        if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SEARCH_MAX_LIMIT) {
          return problem(
            400,
            'invalid_parameter',
            `limit must be an integer from 1 to ${SEARCH_MAX_LIMIT}.`,
            'limit',
          );
        }
        const matches = searchPeople(criteria);
        const results = matches.slice(0, limit as number);
        // Search is billed by volume: 1 credit per person returned, nothing for no results.
        return this.charged(request, results.length, {
          total: matches.length,
          results: results.map((record) => personJson(record, false)),
          has_more: matches.length > results.length,
        });
      })
      .on('GET', '/credits', (request) => {
        const { caller: apiKey } = request;
        return json(200, {
          credits_remaining: this.ledger.balance(apiKey),
          credits_used: this.ledger.spent(apiKey),
          plan: 'sandbox',
        });
      });
  }
}
