import { describe, expect, it } from 'vitest';
import { CreditError, NetworkError, ProviderError } from '../../../src/errors/index.js';
import { definedOnly } from '../../../src/values/defined-only.js';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type AnzDataFixture, anzDataFixture } from './anz-data-fixture.js';

describe('anz_data credits', () => {
  let fx: AnzDataFixture;
  closeAfterEach(() => fx);

  it('a no-match is an empty result with matched: false, never an error, and costs nothing (assumption: credits reported in x-credits-charged)', async () => {
    fx = await anzDataFixture({ credits: 0 });
    const person = await fx.invoke('anz_data.enrich_person', { email: 'nobody@unknown.example' });
    expect(person.output).toEqual({ matched: false, person: null, credits_charged: 0 });
    expect(person.variables).toMatchObject({ matched: false, email: null, full_name: null });
    // A no-match costs nothing, so the cheapest case of every estimate is 0.
    expect(person.meta.credits).toEqual({ estimated: { min: 0, max: 2 }, charged: 0 });

    const company = await fx.invoke('anz_data.enrich_company', { domain: 'not-in-the-sandbox.example' });
    expect(company.output).toEqual({ matched: false, company: null, credits_charged: 0 });
    expect(company.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 0 });

    const search = await fx.invoke('anz_data.search_people', { company: 'Wattle', seniority: 'vp' });
    expect(search.output).toEqual({
      matched: false,
      people: [],
      total: 0,
      returned: 0,
      truncated: false,
      credits_charged: 0,
    });
    expect(search.meta.credits).toEqual({ estimated: { min: 0, max: 10 }, charged: 0 });

    // Even on an empty balance: the provider charges only a match.
    expect(fx.sent()).toHaveLength(3);
    expect(fx.sandbox.anzData.ledger.charges).toEqual([]);
  });

  it('out of credits (402) is a CreditError, sent once and never retried', async () => {
    fx = await anzDataFixture({ credits: 1 });
    // A person with contact details costs 2; the balance is 1.
    const error = await fx
      .invoke('anz_data.enrich_person', { profile_slug: 'olivia-nguyen' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CreditError);
    expect(error).toMatchObject({ code: 'credits_exhausted', status: 402, retryable: false });
    expect((error as CreditError).providerCode).toBe('insufficient_credits');
    expect((error as CreditError).message).toMatch(/POST \/enrich\/person .*402.*balance is 1/);
    expect(fx.sent()).toHaveLength(1);
    expect(fx.sandbox.anzData.creditsOf(fx.apiKey)).toBe(1);

    // The remaining credit still buys a company.
    const company = await fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' });
    expect(company.meta.credits?.charged).toBe(1);
    await expect(
      fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' }),
    ).rejects.toMatchObject({ code: 'credits_exhausted', status: 402 });
    expect(fx.sent()).toHaveLength(3);
  });

  it('refuses before sending a call whose worst case exceeds the budget', async () => {
    fx = await anzDataFixture();
    await expect(
      fx.invoke('anz_data.search_people', { position: 'manager', limit: 20 }, { creditBudget: 5 }),
    ).rejects.toMatchObject({
      name: 'CreditError',
      code: 'credit_budget_exceeded',
      context: { estimated: { min: 0, max: 20 }, budget: 5 },
    });
    await expect(
      fx.invoke('anz_data.enrich_person', { profile_slug: 'mia-thompson' }, { creditBudget: 1 }),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded' });
    // A forwarded search without a limit may return the provider's maximum of 100.
    await expect(
      fx.invoke(
        'anz_data.api_call',
        { method: 'POST', endpoint: '/search/people', body: { position: 'manager' } },
        { creditBudget: 50 },
      ),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded', context: { estimated: { max: 100 } } });
    expect(fx.sent()).toHaveLength(0);

    // Within budget, the call goes ahead.
    const search = await fx.invoke(
      'anz_data.search_people',
      { position: 'manager', limit: 5 },
      { creditBudget: 5 },
    );
    expect(search.meta.credits).toEqual({ estimated: { min: 0, max: 5 }, charged: 5 });
    expect(search.output).toMatchObject({ matched: true, returned: 5, credits_charged: 5 });
    const company = await fx.invoke(
      'anz_data.enrich_company',
      { domain: 'kiwiorchard.example' },
      { creditBudget: 1 },
    );
    expect(company.meta.credits?.charged).toBe(1);
  });

  it("api_call prices every spelling of a paid path, the provider's own GET lookups, and unknown paths as unbounded", async () => {
    fx = await anzDataFixture();
    const refusedUnder = async (budget: number, method: string, endpoint: string, body?: unknown) => {
      const error = await fx
        .invokeUnchecked('anz_data.api_call', definedOnly({ method, endpoint, body }), {
          creditBudget: budget,
        })
        .catch((thrown: unknown) => thrown);
      expect(error, `${method} ${endpoint}`).toMatchObject({ code: 'credit_budget_exceeded' });
      return error as CreditError;
    };
    // Spellings a server routes to POST /enrich/person (up to 2 credits) are priced as it.
    for (const endpoint of ['/enrich/%70erson', '/enrich//person', 'enrich/person/', '/Enrich/Person?x=1']) {
      const error = await refusedUnder(1, 'POST', endpoint, { email: 'a@b.example' });
      expect(error.context.estimated).toEqual({ min: 0, max: 2 });
    }
    // A POST to a path of unknown price is unbounded: no budget admits it.
    const unknown = await refusedUnder(1_000_000, 'POST', '/enrich/people', { email: 'a@b.example' });
    expect(unknown.message).toMatch(/no known price/);
    // Unbounded is said in words, never as a number nobody can act on.
    expect(`${unknown.message} ${JSON.stringify(unknown.context)}`).not.toMatch(/Infinity/);
    // The provider's own paid reads (provider facts: GET /company, /people) are not free.
    expect((await refusedUnder(0, 'GET', '/company?domain=kiwiorchard.example')).context.estimated).toEqual({
      min: 0,
      max: 1,
    });
    await refusedUnder(1_000, 'GET', '/people?company=Wattle');
    await refusedUnder(1_000, 'GET', '/People/');
    expect(fx.sent()).toHaveLength(0);

    // The balance check stays free under a zero budget.
    const free = await fx.invoke(
      'anz_data.api_call',
      { method: 'GET', endpoint: '/credits' },
      { creditBudget: 0 },
    );
    expect(free.meta.credits).toEqual({ estimated: { min: 0, max: 0 }, charged: 0 });
  });

  it('a paid lookup is not replayed after the provider may have charged for it', async () => {
    fx = await anzDataFixture();
    // The provider charges, then the connection drops before the answer arrives.
    fx.sandbox.faults.add(resetOnce({ target: 'anz-data', pathIncludes: '/enrich/person' }));
    await expect(
      fx.invoke('anz_data.enrich_person', { profile_slug: 'olivia-nguyen' }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(fx.sent()).toHaveLength(1);
    expect(fx.sandbox.anzData.ledger.spent(fx.apiKey)).toBe(2);

    // A 500 may also follow a charge: reported, not retried.
    fx.sandbox.faults.add({
      target: 'anz-data',
      pathIncludes: '/enrich/company',
      count: 1,
      action: { kind: 'status', status: 500 },
    });
    await expect(
      fx.invoke('anz_data.enrich_company', { domain: 'kiwiorchard.example' }),
    ).rejects.toBeInstanceOf(ProviderError);
    expect(fx.sent()).toHaveLength(2);
  });

  it.each([500, 502, 504])(
    'a paid lookup answered %i after the provider charged it is reported as unknown, sent once, charged once',
    async (status) => {
      fx = await anzDataFixture();
      // The provider matches and charges, then a gateway answers with a 5xx.
      fx.sandbox.faults.add({
        target: 'anz-data',
        pathIncludes: '/enrich/person',
        count: 1,
        action: { kind: 'status', status, when: 'after' },
      });
      const error = await fx
        .invoke('anz_data.enrich_person', { profile_slug: 'olivia-nguyen' })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'provider_error', status, retryable: false });
      expect((error as ProviderError).outcome).toBe('unknown');
      expect(fx.sent()).toHaveLength(1);
      expect(fx.sandbox.anzData.ledger.charges).toHaveLength(1);
      expect(fx.sandbox.anzData.ledger.spent(fx.apiKey)).toBe(2);
    },
  );

  it('retries a paid lookup the provider refused without acting (429, 503) and pays once', async () => {
    fx = await anzDataFixture();
    fx.sandbox.faults.add({
      target: 'anz-data',
      pathIncludes: '/search/people',
      count: 1,
      action: {
        kind: 'status',
        status: 429,
        headers: { 'retry-after': '2', 'content-type': 'application/json' },
        body: { error: { code: 'rate_limited', message: 'Too many requests.' } },
      },
    });
    // A 503 that says when to come back is a refusal before any work; without Retry-After it proves nothing.
    fx.sandbox.faults.add({
      target: 'anz-data',
      pathIncludes: '/search/people',
      count: 1,
      action: { kind: 'status', status: 503, headers: { 'retry-after': '1' } },
    });
    const search = await fx.invoke('anz_data.search_people', { company: 'Tasman Fintech' });
    expect(search.meta).toMatchObject({ attempts: 3, retries: 2, credits: { charged: 2 } });
    expect(fx.clock.sleeps[0]).toBe(2000);
    expect(fx.sent()).toHaveLength(3);
    expect(fx.sandbox.anzData.ledger.charges).toHaveLength(1);
  });
});
