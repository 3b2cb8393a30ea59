import type { Clock } from '../../src/model/clock.js';
import type { Emulator } from '../emulator.js';
import { Router } from '../router.js';
import { type Reply, type SandboxRequest, withHeaders } from '../sandbox-http.js';
import { ContactDataAssumptions } from './contact-data-assumptions.js';
import { ContactDataDirectory } from './contact-data-directory.js';
import type { ContactDataAccount, ContactDataPlan } from './contact-data-lookups.js';
import { contactDataRoutes } from './contact-data-routes.js';
import { CONTACT_DATA_SEED } from './contact-data-seed.js';
import { contactDataTwin } from './contact-data-twin.js';
import { failure } from './contact-data-wire.js';
import { type ContactDataQuota, KeyQuotas } from './key-quotas.js';

export { type ContactDataPlan, personCharge } from './contact-data-lookups.js';
export { BULK_CAP, SEARCH_RESULTS_PER_CREDIT } from './contact-data-routes.js';

/** The key `toolsteps sandbox` and the demo connect with. */
export const CONTACT_DATA_SANDBOX_KEY = 'cd_sandbox_key_0001';

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
  /** What the spec leaves open (contact-data-assumptions.ts): the search and usage paths. */
  assumptions?: ContactDataAssumptions;
}

/**
 * The contact and company data provider (C): `POST /person`, `/company`,
 * their `/bulk` forms (at most 100 records, charged per revealed record),
 * `/person/search` and `/company/search` and `GET /account/usage` (our
 * chosen paths, which the spec does not show: settings in
 * contact-data-assumptions.ts). The key travels in an `api_key`
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
  readonly directory = new ContactDataDirectory(CONTACT_DATA_SEED);
  readonly quotas: KeyQuotas;
  private accounts = new Map<string, ContactDataAccount>();
  private readonly api = new Router<ContactDataAccount>();
  readonly assumptions: ContactDataAssumptions;
  /** What evaluation scenarios seed and check: the sandbox key's credits. */
  readonly twin = contactDataTwin({
    setBalance: (credits) => this.setBalance(CONTACT_DATA_SANDBOX_KEY, credits),
    balance: () => this.balance(CONTACT_DATA_SANDBOX_KEY),
    spent: () => this.spent(CONTACT_DATA_SANDBOX_KEY),
  });

  constructor(private readonly options: ContactDataEmulatorOptions) {
    this.quotas = new KeyQuotas(options.clock, {
      minute: 60,
      hourly: 1_000,
      daily: 10_000,
      ...options.quota,
    });
    this.seedKeys();
    this.assumptions = options.assumptions ?? ContactDataAssumptions.parse({});
    contactDataRoutes(this.api, this.directory, this.assumptions);
  }

  private seedKeys(): void {
    const keys = this.options.keys ?? { [CONTACT_DATA_SANDBOX_KEY]: { credits: 1_000 } };
    for (const [key, settings] of Object.entries(keys)) this.addKey(key, settings);
  }

  /** Accepts a new key (or resets one) with a balance and a plan. */
  addKey(key: string, settings: ContactDataKeyOptions): void {
    this.accounts.set(key, { balance: settings.credits, spent: 0, plan: settings.plan ?? 'pro' });
  }

  /** Sets an API key's credit balance, so a test can exhaust it mid-batch. */
  setBalance(key: string, credits: number): void {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`No sandbox key "${key}".`);
    account.balance = credits;
  }

  /** The key's remaining credits (undefined for an unknown key), to check what a batch was charged. */
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
      const { person_search_path, company_search_path } = this.assumptions;
      const restricted =
        request.path.endsWith('/bulk') ||
        request.path === person_search_path ||
        request.path === company_search_path;
      if (restricted && account.plan !== 'pro') {
        reply = failure(403, 'Your plan does not include bulk or search endpoints; upgrade to use them');
      } else {
        reply = await this.api.run(found, request, account);
      }
    }
    return withHeaders(reply, quota.headers);
  }
}
