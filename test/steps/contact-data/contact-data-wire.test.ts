import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contactDataSteps } from '../../../steps/contact-data/steps.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { contactDataFixture, TEST_KEY } from './contact-data-fixture.js';

describe('contact_data steps on the wire', () => {
  const fx = useFixture(contactDataFixture);

  const person = (index: number) => fx.sandbox.contactData.directory.people[index]!;

  it('sends the key in the api_key header and JSON in the provider casing', async () => {
    await fx.invoke('contact_data.find_contact', { email: person(1).emailAddresses[0]!.email });
    const [request] = fx.sent();
    expect(request).toMatchObject({
      method: 'POST',
      path: '/person',
      body: { email: 'ben.abbott@contoso.example' },
    });
    expect(request!.headers.api_key).toBe(TEST_KEY);
    expect(request!.headers.authorization).toBeUndefined();
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('find_contact: each way to identify a person, in the provider field names', async () => {
    await fx.invoke('contact_data.find_contact', { profile_url: person(3).profileUrl });
    await fx.invoke('contact_data.find_contact', {
      first_name: 'Ava',
      last_name: 'Abbott',
      company: 'Northwind Traders',
    });
    expect(fx.sent().map((request) => request.body)).toEqual([
      { profileUrl: 'https://www.linkedin.com/in/daniel-abbott' },
      { firstName: 'Ava', lastName: 'Abbott', company: 'Northwind Traders' },
    ]);
  });

  it('find_contact: a typed contact, credits reported by the provider', async () => {
    const result = await fx.invoke('contact_data.find_contact', {
      email: person(1).emailAddresses[0]!.email,
    });
    expect(result.output.matched).toBe(true);
    expect(result.output.contact).toMatchObject({
      full_name: 'Ben Abbott',
      job_title: 'Chief Executive Officer',
      company: { name: 'Contoso Analytics', domain: 'contoso.example' },
      location: { city: 'Austin', state: 'Texas', country: 'United States' },
      emails: [{ address: 'ben.abbott@contoso.example', type: 'work' }],
      phones: [
        { number: '+1 555 101 0001', type: 'mobile' },
        { number: '+1 555 010 0001', type: 'direct' },
      ],
    });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 2 }, charged: 2 });
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(2);
  });

  it('find_company: domain or name -> POST /company with firmographics', async () => {
    const byDomain = await fx.invoke('contact_data.find_company', {
      domain: 'www.fabrikam.example',
    });
    await fx.invoke('contact_data.find_company', { name: 'Litware Labs' });
    expect(fx.sent().map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/company', body: { domain: 'www.fabrikam.example' } },
      { method: 'POST', path: '/company', body: { name: 'Litware Labs' } },
    ]);
    expect(byDomain.output.company).toMatchObject({
      name: 'Fabrikam Robotics',
      industry: 'Industrial Automation',
      size: '501-1000',
      employee_count: 760,
      location: { city: 'Munich', country: 'Germany' },
      technologies: ['SAP', 'Azure', 'Siemens MindSphere'],
      revenue: { range: '$100M-$250M', annual_usd: 180_000_000 },
    });
    expect(byDomain.meta.credits?.charged).toBe(1);
  });

  it('enrich_contacts: POST /person/bulk in batches of batch_size, results in input order', async () => {
    const contacts = Array.from({ length: 7 }, (_, index) => ({
      email: person(index).emailAddresses[0]!.email,
    }));
    const result = await fx.invoke('contact_data.enrich_contacts', {
      contacts,
      batch_size: 3,
      concurrency: 2,
    });
    const sent = fx.sent();
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array(3).fill('POST /person/bulk'),
    );
    expect(sent.map((request) => request.body)).toEqual([
      contacts.slice(0, 3),
      contacts.slice(3, 6),
      contacts.slice(6),
    ]);
    expect(result.output.results.map((entry) => entry.contact?.id)).toEqual(
      Array.from({ length: 7 }, (_, index) => person(index).id),
    );
  });

  it('enrich_companies: POST /company/bulk with domain or name per record', async () => {
    const result = await fx.invoke('contact_data.enrich_companies', {
      companies: [{ domain: 'contoso.example' }, { name: 'Proseware' }, { domain: 'nowhere.example' }],
    });
    expect(fx.sent()).toMatchObject([
      {
        method: 'POST',
        path: '/company/bulk',
        body: [{ domain: 'contoso.example' }, { name: 'Proseware' }, { domain: 'nowhere.example' }],
      },
    ]);
    expect(result.output.results.map((entry) => entry.status)).toEqual(['matched', 'matched', 'no_match']);
    expect(result.output.summary).toMatchObject({ matched: 2, no_match: 1, failed: 0, credits_charged: 2 });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 3 }, charged: 2 });
  });

  it('search_contacts: POST /person/search with camelCase filters and a limit (assumption: the search path)', async () => {
    const result = await fx.invoke('contact_data.search_contacts', {
      job_title: 'VP of Sales',
      industry: 'software',
      location: 'United States',
      limit: 3,
    });
    expect(fx.sent()).toMatchObject([
      {
        method: 'POST',
        path: '/person/search',
        body: {
          filters: { jobTitle: 'VP of Sales', industry: 'software', location: 'United States' },
          limit: 3,
        },
      },
    ]);
    expect(result.output.contacts).toHaveLength(3);
    for (const contact of result.output.contacts) {
      expect(contact).toMatchObject({ job_title: 'VP of Sales', company: { name: 'Contoso Analytics' } });
      expect(contact).not.toHaveProperty('emails');
    }
    expect(result.output.truncated).toBe((result.output.total ?? 0) > 3);
    expect(result.output).toMatchObject({ matched: true, returned: 3, credits_charged: 1 });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 1 });
  });

  it('search_companies: POST /company/search; an empty result costs nothing (assumption: the search path)', async () => {
    const found = await fx.invoke('contact_data.search_companies', { industry: 'software' });
    const none = await fx.invoke('contact_data.search_companies', {
      company: 'no such company',
    });
    expect(fx.sent().map((request) => request.body)).toEqual([
      { filters: { industry: 'software' }, limit: 25 },
      { filters: { company: 'no such company' }, limit: 25 },
    ]);
    expect(found.output.companies.map((company) => company.name)).toEqual([
      'Contoso Analytics',
      'Litware Labs',
    ]);
    expect(none.output).toEqual({
      companies: [],
      matched: false,
      total: 0,
      returned: 0,
      truncated: false,
      credits_charged: 0,
    });
    expect(none.variables).toMatchObject({ matched: false });
    expect(none.meta.credits?.charged).toBe(0);
  });

  it('api_call: GET and POST any path with the key attached; other methods are refused', async () => {
    const usage = await fx.invoke('contact_data.api_call', { method: 'GET', endpoint: '/account/usage' });
    const post = await fx.invoke('contact_data.api_call', {
      method: 'POST',
      endpoint: 'company',
      body: { domain: 'proseware.example' },
    });
    expect(usage.output).toMatchObject({ status: 200, body: { credits: { balance: 10_000 } } });
    expect((post.output.body as { data: { name: string } }).data.name).toBe('Proseware');
    expect(fx.sent().map(({ method, path, headers }) => [method, path, headers.api_key])).toEqual([
      ['GET', '/account/usage', TEST_KEY],
      ['POST', '/company', TEST_KEY],
    ]);
    await expect(
      fx.invoke('contact_data.api_call', { method: 'DELETE', endpoint: '/person' }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    await expect(
      fx.invoke('contact_data.api_call', { method: 'GET', endpoint: 'https://evil.example/steal' }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    expect(fx.sent()).toHaveLength(2);
  });
});

describe('contact_data provider errors, through API Call', () => {
  const fx = useFixture(contactDataFixture);

  it('a bulk body above 100 records is a 400 with the provider message, charged nothing', async () => {
    const body = Array.from({ length: 101 }, (_, index) => ({ email: `p${index}@acme.example` }));
    const error = await fx
      .invoke('contact_data.api_call', { method: 'POST', endpoint: '/person/bulk', body })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'provider_rejected',
      status: 400,
      providerMessage: expect.stringContaining('at most 100 records'),
    });
    expect(fx.sandbox.contactData.spent(TEST_KEY)).toBe(0);
  });

  it('a record without a lookup key is a 400 naming the field; an unknown path is a 404', async () => {
    await expect(
      fx.invoke('contact_data.api_call', { method: 'POST', endpoint: '/person', body: { phone: '+1 555' } }),
    ).rejects.toMatchObject({ status: 400, fields: [{ path: 'body' }] });
    await expect(
      fx.invoke('contact_data.api_call', { method: 'GET', endpoint: '/people' }),
    ).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });
});

describe('contact_data step files', () => {
  it('are named for their ids, one step per file', () => {
    const folder = fileURLToPath(new URL('../../../steps/contact-data', import.meta.url));
    const files = new Set(readdirSync(folder));
    expect(contactDataSteps).toHaveLength(7);
    for (const step of contactDataSteps) {
      expect(files.has(`${step.id.split('.')[1]!.replaceAll('_', '-')}.ts`)).toBe(true);
    }
  });
});
