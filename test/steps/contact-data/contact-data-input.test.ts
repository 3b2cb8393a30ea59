import { describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { contactDataFixture } from './contact-data-fixture.js';

/** Every input rule is checked before sending: each case must fail with input_invalid and send nothing. */
describe('contact_data input rules: refused with nothing sent', () => {
  const fx = useFixture(contactDataFixture, 'all');

  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ email: `p${index}@acme.example` }));

  const refused: [string, string, unknown, string | RegExp][] = [
    ['find_contact', 'no way to identify the person', {}, /give one way/],
    [
      'find_contact',
      'email and profile URL',
      { email: 'a@b.example', profile_url: 'https://x.example/in/a' },
      /exactly one way/,
    ],
    [
      'find_contact',
      'email and a name',
      { email: 'a@b.example', first_name: 'Ann', last_name: 'Lee', company: 'Acme' },
      /exactly one way/,
    ],
    ['find_contact', 'a name without company', { first_name: 'Ann', last_name: 'Lee' }, /company/],
    ['find_contact', 'a malformed email', { email: 'not-an-email' }, /email/],
    ['find_contact', 'a non-http profile URL', { profile_url: 'javascript:alert(1)' }, /profile_url/],
    ['find_contact', 'an unknown field (a typo)', { mail: 'a@b.example' }, /mail/],
    // Unknown keys are refused on every step, as anz_data does, never silently dropped.
    [
      'search_contacts',
      'an unknown filter (a typo)',
      { job_titel: 'CTO' },
      /unknown field `[a-z0-9.]*job_titel`/,
    ],
    [
      'search_companies',
      'an unknown filter',
      { industry: 'media', size: '50' },
      /unknown field `[a-z0-9.]*size`/,
    ],
    [
      'enrich_contacts',
      'an unknown option',
      { contacts: many(2), batchSize: 10 },
      /unknown field `batchSize`; did you mean `batch_size`\?/,
    ],
    [
      'enrich_companies',
      'an unknown key in a record',
      { companies: [{ domain: 'acme.example', website: 'acme.example' }] },
      /unknown field `[a-z0-9.]*website`/,
    ],
    [
      'api_call',
      'request headers (not allowed here)',
      { method: 'GET', endpoint: '/account/usage', headers: { api_key: 'cd_other_key_000' } },
      /unknown field `[a-z0-9.]*headers`/,
    ],
    ['find_company', 'no domain or name', {}, /domain or name/],
    ['find_company', 'domain and name', { domain: 'acme.example', name: 'Acme' }, /not both/],
    ['find_company', 'a domain that is not one', { domain: 'acme' }, /domain/],
    ['enrich_contacts', 'an empty list', { contacts: [] }, /contacts/],
    ['enrich_contacts', 'more than 10,000 records', { contacts: many(10_001) }, /contacts/],
    [
      'enrich_contacts',
      'a batch above the provider cap',
      { contacts: many(2), batch_size: 101 },
      /batch_size/,
    ],
    ['enrich_contacts', 'a zero batch', { contacts: many(2), batch_size: 0 }, /batch_size/],
    ['enrich_contacts', 'concurrency above 5', { contacts: many(2), concurrency: 6 }, /concurrency/],
    [
      'enrich_contacts',
      'one bad record among good ones',
      { contacts: [...many(3), { email: 'a@b.example', profile_url: 'https://x.example/in/a' }] },
      /contacts\.3/,
    ],
    [
      'enrich_companies',
      'a record with neither domain nor name',
      { companies: [{ domain: 'acme.example' }, {}] },
      /companies\.1/,
    ],
    [
      'enrich_companies',
      'a batch above the provider cap',
      { companies: [{ name: 'Acme' }], batch_size: 500 },
      /batch_size/,
    ],
    ['search_contacts', 'no filter', { limit: 5 }, /at least one filter/],
    ['search_contacts', 'a limit above 100', { job_title: 'CTO', limit: 101 }, /limit/],
    ['search_companies', 'no filter', {}, /at least one filter/],
    ['api_call', 'a body on GET', { method: 'GET', endpoint: '/account/usage', body: { a: 1 } }, /body/],
    ['api_call', 'a path escaping the base URL', { method: 'GET', endpoint: '/person/../../admin' }, /\.\./],
  ];

  it.each(refused)('%s refuses %s', async (step, _label, input, message) => {
    const before = fx.sent().length;
    const error = await fx.invokeUnchecked(`contact_data.${step}`, input).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'InputError', code: 'input_invalid' });
    expect((error as Error).message).toMatch(message);
    expect(fx.sent().length).toBe(before);
  });

  it('refuses a run whose worst case exceeds the credit budget, before sending', async () => {
    const before = fx.sent().length;
    const error = await fx
      .invoke('contact_data.enrich_contacts', { contacts: many(60) }, { creditBudget: 100 })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      name: 'CreditError',
      code: 'credit_budget_exceeded',
      retryable: false,
      context: { estimated: { min: 0, max: 120 }, budget: 100 },
    });
    await expect(
      fx.invoke('contact_data.find_contact', { email: 'a@b.example' }, { creditBudget: 1 }),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded' });
    await expect(
      fx.invoke('contact_data.search_contacts', { industry: 'software', limit: 100 }, { creditBudget: 3 }),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded' });
    // API Call is held to the worst case of the path it names; an unknown paid path is unbounded.
    await expect(
      fx.invoke(
        'contact_data.api_call',
        { method: 'POST', endpoint: '/person/bulk', body: many(60) },
        { creditBudget: 100 },
      ),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded', context: { estimated: { max: 120 } } });
    await expect(
      fx.invoke(
        'contact_data.api_call',
        { method: 'POST', endpoint: '/person/reveal', body: {} },
        { creditBudget: 50 },
      ),
    ).rejects.toMatchObject({ code: 'credit_budget_exceeded' });
    // Every spelling a server routes to a paid path is priced as that path.
    for (const endpoint of ['/person/%62ulk', '/person//bulk/', 'PERSON/BULK?x=1']) {
      await expect(
        fx.invoke(
          'contact_data.api_call',
          { method: 'POST', endpoint, body: many(60) },
          { creditBudget: 100 },
        ),
        endpoint,
      ).rejects.toMatchObject({ code: 'credit_budget_exceeded', context: { estimated: { max: 120 } } });
    }
    // A read of unknown price is not assumed free; the usage check is.
    const unknownRead = await fx
      .invoke(
        'contact_data.api_call',
        { method: 'GET', endpoint: '/person?email=a@b.example' },
        { creditBudget: 1_000 },
      )
      .catch((thrown: unknown) => thrown);
    expect(unknownRead).toMatchObject({ code: 'credit_budget_exceeded' });
    expect(`${(unknownRead as Error).message} ${JSON.stringify(unknownRead)}`).not.toMatch(/Infinity/);
    expect(fx.sent().length).toBe(before);
  });

  it('sends a run whose worst case fits the budget', async () => {
    const result = await fx.invoke('contact_data.find_company', { name: 'Proseware' }, { creditBudget: 1 });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 1 });
    const raw = await fx.invoke(
      'contact_data.api_call',
      { method: 'POST', endpoint: '/company', body: { name: 'Proseware' } },
      { creditBudget: 1 },
    );
    expect(raw.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 1 });
    const free = await fx.invoke(
      'contact_data.api_call',
      { method: 'GET', endpoint: '/account/usage' },
      { creditBudget: 0 },
    );
    expect(free.meta.credits).toEqual({ estimated: { min: 0, max: 0 }, charged: null });
  });
});
