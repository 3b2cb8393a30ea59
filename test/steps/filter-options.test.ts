import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxFixture, sandboxFixture } from '../support/sandbox-fixture.js';

/**
 * The search filters whose values are a closed list at the provider: the
 * same options surface, answered without a connection or a request, and
 * each choice a value the sandbox's search finds people or companies by.
 */
let fx: SandboxFixture;
beforeAll(async () => {
  fx = await sandboxFixture({
    sandbox: { contactData: { keys: { cd_filter_key_0123456789: { credits: 1000, plan: 'pro' } } } },
    connections: (sandbox) => [
      {
        id: 'anz',
        integration: 'anz_data',
        kind: 'api_key',
        fields: { baseUrl: sandbox.baseUrl('anz-data') },
        secrets: { apiKey: sandbox.anzData.issueKey(1000) },
      },
      {
        id: 'contacts',
        integration: 'contact_data',
        kind: 'api_key',
        fields: { baseUrl: sandbox.baseUrl('contact-data') },
        secrets: { apiKey: 'cd_filter_key_0123456789' },
      },
    ],
  });
});
afterAll(() => fx.close());

const values = async (step: string, field: string, query?: string) =>
  (await fx.registry.options(fx.runtime, step, field, { query })).items.map((item) => item.value);

describe('closed-list filters', () => {
  it('ANZ seniority and department: the provider’s keys, no request, and a chosen one finds people', async () => {
    const before = fx.sandbox.server.requestLog.length;
    expect(await values('anz_data.search_people', 'seniority')).toEqual(
      expect.arrayContaining(['c_suite', 'director', 'manager', 'vp', 'head', 'senior']),
    );
    expect(await values('anz_data.search_people', 'department', 'engin')).toEqual(['engineering']);
    expect(fx.sandbox.server.requestLog.length).toBe(before);
    const found = await fx.invokeUnchecked(
      'anz_data.search_people',
      { seniority: 'c_suite', department: 'engineering', limit: 5 },
      { connection: 'anz' },
    );
    expect((found.output as { people: unknown[] }).people.length).toBeGreaterThan(0);
  });

  it('ANZ company size and location: closed lists, and the sandbox searches by each', async () => {
    expect(await values('anz_data.search_people', 'company_size')).toEqual([
      '1-10',
      '11-50',
      '51-200',
      '201-500',
      '501-1000',
      '1001-5000',
      '5001-10000',
      '10001+',
    ]);
    expect(await values('anz_data.search_people', 'location', 'new')).toEqual(['New Zealand', 'NSW']);
    const slugs = async (input: Record<string, unknown>) => {
      const found = await fx.invokeUnchecked(
        'anz_data.search_people',
        { ...input, limit: 20 },
        { connection: 'anz' },
      );
      return (found.output as { people: { profile_slug: string }[] }).people.map(
        (person) => person.profile_slug,
      );
    };
    expect(await slugs({ company_size: '11-50' })).toEqual(['isla-jones', 'tane-walker', 'sophie-clark']);
    expect(await slugs({ location: 'New Zealand' })).toEqual(['aroha-ngata', 'tane-walker', 'sophie-clark']);
    // Combined (AND): Sydney's people at the two 51-200 companies; Melbourne's Priya is left out.
    expect(await slugs({ location: 'NSW', company_size: '51-200' })).toEqual([
      'olivia-nguyen',
      'liam-murphy',
      'jack-wilson',
      'mia-thompson',
      'lucas-white',
      'ava-harris',
    ]);
    const sent = fx.sandbox.server.requestLog.filter((entry) => entry.path === '/search/people').at(-1)!;
    expect(JSON.parse(sent.rawBody)).toMatchObject({ location: 'NSW', company_size: '51-200' });
    await expect(
      fx.invokeUnchecked('anz_data.search_people', { company_size: '50-200' }, { connection: 'anz' }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'company_size' })],
    });
  });

  it('contact data industry and country (location): closed lists on both searches', async () => {
    expect(await values('contact_data.search_companies', 'industry', 'soft')).toEqual(['Software']);
    expect(await values('contact_data.search_contacts', 'location', 'united')).toEqual([
      'United Kingdom',
      'United States',
    ]);
    const found = await fx.invokeUnchecked(
      'contact_data.search_companies',
      { industry: 'Software', location: 'United States', limit: 5 },
      { connection: 'contacts' },
    );
    expect((found.output as { companies: unknown[] }).companies.length).toBeGreaterThan(0);
  });

  it('the manifest marks them as fixed lists', async () => {
    const { buildManifest } = await import('../../src/catalog/manifest.js');
    const step = buildManifest(fx.registry).steps.find((entry) => entry.id === 'anz_data.search_people')!;
    const seniority = (step.input.properties as Record<string, Record<string, unknown>>).seniority!;
    expect(seniority['x-toolsteps-options']).toEqual({ dependsOn: [], searchable: true, fixed: true });
  });
});
