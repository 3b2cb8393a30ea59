import { describe, expect, it } from 'vitest';
import type { InvokeExtras } from '../../support/catalog-invoke.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type ContactDataFixture, contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

describe('contact_data credits, no match and provider refusals', () => {
  let fx: ContactDataFixture;
  closeAfterEach(() => fx);

  /** find_contact of `email` when it must fail (on `extra`'s connection, if given): what it fails with. */
  const findContactFailure = (email: string, extra?: InvokeExtras) =>
    fx.invoke('contact_data.find_contact', { email }, extra).catch((thrown: unknown) => thrown);

  const emails = (from: number, count: number) =>
    fx.sandbox.contactData.directory.people
      .slice(from, from + count)
      .map((person) => ({ email: person.emailAddresses[0]!.email }));

  it('a contact the provider does not know is an empty result, not an error, and costs nothing', async () => {
    fx = await contactDataFixture({ credits: 50 });
    const result = await fx.invoke('contact_data.find_contact', { email: 'nobody@unknown.example' });
    expect(result.output).toEqual({ matched: false, contact: null, credits_charged: 0 });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 2 }, charged: 0 });
    const company = await fx.invoke('contact_data.find_company', { domain: 'unknown.example' });
    expect(company.output).toEqual({ matched: false, company: null, credits_charged: 0 });
    expect(fx.sandbox.contactData.balance(TEST_KEY)).toBe(50);
  });

  it('charges what the provider reports: 1 credit with email only, 2 with phones', async () => {
    fx = await contactDataFixture({ credits: 50 });
    const people = fx.sandbox.contactData.directory.people;
    const emailOnly = await fx.invoke('contact_data.find_contact', {
      email: people[0]!.emailAddresses[0]!.email,
    });
    const withPhones = await fx.invoke('contact_data.find_contact', {
      email: people[1]!.emailAddresses[0]!.email,
    });
    expect([emailOnly.meta.credits?.charged, withPhones.meta.credits?.charged]).toEqual([1, 2]);
    expect(fx.sandbox.contactData.balance(TEST_KEY)).toBe(47);
  });

  it('402 is a CreditError, sent once and never retried', async () => {
    fx = await contactDataFixture({ credits: 0 });
    const error = await findContactFailure('ava.abbott@northwind.example');
    expect(error).toMatchObject({
      name: 'CreditError',
      code: 'credits_exhausted',
      status: 402,
      retryable: false,
    });
    expect(fx.sent()).toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('402 on the first bulk batch throws a CreditError and sends no other batch', async () => {
    fx = await contactDataFixture({ credits: 0 });
    await expect(
      fx.invoke('contact_data.enrich_contacts', { contacts: emails(0, 30), batch_size: 10, concurrency: 1 }),
    ).rejects.toMatchObject({ name: 'CreditError', code: 'credits_exhausted', status: 402 });
    expect(fx.sent()).toHaveLength(1);
  });

  it('credits running out mid-bulk: paid records are kept, the rest fail as credits_exhausted, later batches are not sent', async () => {
    // People 0..9 cost 1,2,2,1,2,2,1,2,2,1: 15 credits cover the first batch and 4 of the second.
    fx = await contactDataFixture({ credits: 15 });
    const result = await fx.invoke('contact_data.enrich_contacts', {
      contacts: emails(0, 30),
      batch_size: 5,
      concurrency: 1,
    });
    const { results, summary } = result.output;
    expect(fx.sent()).toHaveLength(2);
    expect(results.slice(0, 9).every((entry) => entry.status === 'matched')).toBe(true);
    expect(results[9]).toMatchObject({
      status: 'failed',
      credits_charged: 0,
      error: { code: 'credits_exhausted', outcome: 'refused' },
    });
    expect(results.slice(10).every((entry) => entry.error?.outcome === 'not_sent')).toBe(true);
    expect(result.output.stopped).toMatchObject({ code: 'credits_exhausted' });
    expect(summary).toMatchObject({ matched: 9, failed: 21, credits_charged: 15 });
    expect(result.output.complete).toBe(false);
    expect(result.meta.credits?.charged).toBe(15);
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(15);
    // Nothing was charged for any failed record: all safe to run again once credits are added.
    expect(result.output.retry_indexes).toEqual(Array.from({ length: 21 }, (_, index) => index + 9));
    expect(result.output.unknown_indexes).toEqual([]);
  });

  it.each([500, 502, 504])(
    'a lookup answered %i after the provider charged it is unknown, not retryable, and sent once',
    async (status) => {
      fx = await contactDataFixture({ credits: 50 });
      fx.sandbox.faults.add({
        target: 'contact-data',
        pathIncludes: '/person',
        count: 1,
        action: {
          kind: 'status',
          status,
          when: 'after',
          body: { statusCode: status, message: 'Gateway', errors: [] },
        },
      });
      const error = await findContactFailure(emails(1, 1)[0]!.email);
      expect(error).toMatchObject({
        code: 'provider_error',
        status,
        retryable: false,
        outcome: 'unknown',
      });
      expect(fx.sent()).toHaveLength(1);
      // The provider charged once (2 credits, phones included); nothing was sent again to charge twice.
      expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(2);
    },
  );

  it('a charge the provider does not report stays null, never 0', async () => {
    const withoutCharges: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = (await response.json()) as Record<string, unknown>;
      const strip = (record: Record<string, unknown>) => {
        const { creditsCharged: _dropped, ...rest } = record;
        return rest;
      };
      const stripped = Array.isArray(body.results)
        ? { ...strip(body), results: (body.results as Record<string, unknown>[]).map(strip) }
        : strip(body);
      return new Response(JSON.stringify(stripped), { status: response.status, headers: response.headers });
    };
    fx = await contactDataFixture({ credits: 50, runtime: { transport: { fetch: withoutCharges } } });
    const miss = await fx.invoke('contact_data.find_contact', { email: 'nobody@unknown.example' });
    expect(miss.output).toEqual({ matched: false, contact: null, credits_charged: null });
    expect(miss.meta.credits?.charged).toBeNull();
    const bulk = await fx.invoke('contact_data.enrich_contacts', {
      contacts: [...emails(0, 1), { email: 'nobody@unknown.example' }],
    });
    expect(bulk.output.results.map((entry) => [entry.status, entry.credits_charged])).toEqual([
      ['matched', null],
      ['no_match', null],
    ]);
    expect(bulk.output.summary.credits_charged).toBeNull();
    const search = await fx.invoke('contact_data.search_companies', { industry: 'software' });
    expect(search.output).toMatchObject({ matched: true, credits_charged: null });
  });

  it('403 (plan lacks the endpoint) is a PlanError', async () => {
    fx = await contactDataFixture({ plan: 'basic' });
    await expect(
      fx.invoke('contact_data.enrich_companies', { companies: [{ domain: 'contoso.example' }] }),
    ).rejects.toMatchObject({ name: 'PlanError', code: 'plan_required', status: 403, retryable: false });
    await expect(fx.invoke('contact_data.search_companies', { industry: 'media' })).rejects.toMatchObject({
      code: 'plan_required',
    });
    const single = await fx.invoke('contact_data.find_company', { domain: 'contoso.example' });
    expect(single.output).toMatchObject({ matched: true });
  });

  it('an unknown key is an AuthError asking to check the key', async () => {
    fx = await contactDataFixture();
    const error = await findContactFailure('a@b.example', {
      connection: { ...fx.connection, secrets: { apiKey: 'cd_wrong_key_0000' } },
    });
    expect(error).toMatchObject({ name: 'AuthError', code: 'reauthorization_required', status: 401 });
    expect((error as Error).message).toMatch(/API key of connection "contacts-main" was not accepted/);
  });
});
