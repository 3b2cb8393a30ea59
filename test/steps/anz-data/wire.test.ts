import { describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { anzDataFixture } from './anz-data-fixture.js';

describe('anz_data steps on the wire', () => {
  const fx = useFixture(anzDataFixture);

  function lastRequest() {
    const entry = fx.sent().at(-1)!;
    return { ...entry, body: entry.rawBody ? JSON.parse(entry.rawBody) : undefined };
  }

  it('enrich_person sends one lookup key to POST /enrich/person with the key as a Bearer token', async () => {
    const result = await fx.invoke('anz_data.enrich_person', {
      email: 'olivia.nguyen@wattle-analytics.example',
    });
    const request = lastRequest();
    expect(request).toMatchObject({ method: 'POST', path: '/enrich/person' });
    expect(request.headers.authorization).toBe(`Bearer ${fx.apiKey}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ email: 'olivia.nguyen@wattle-analytics.example' });

    expect(result.output).toEqual({
      matched: true,
      person: {
        full_name: 'Olivia Nguyen',
        first_name: 'Olivia',
        last_name: 'Nguyen',
        job_title: 'Chief Executive Officer',
        seniority: 'c_suite',
        department: 'executive',
        company: { name: 'Wattle Analytics', domain: 'wattle-analytics.example' },
        location: { city: 'Sydney', state: 'NSW', country: 'Australia' },
        profile_url: 'https://profiles.example/in/olivia-nguyen',
        profile_slug: 'olivia-nguyen',
        emails: [{ address: 'olivia.nguyen@wattle-analytics.example', type: 'work', verified: true }],
        phones: [{ number: '+61491570156', type: 'mobile' }],
      },
      credits_charged: 2,
    });
    expect(result.variables).toMatchObject({
      matched: true,
      email: 'olivia.nguyen@wattle-analytics.example',
      phone: '+61491570156',
      company: 'Wattle Analytics',
    });
    // Contact details come with the profile: the provider charged 2 and said so.
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 2 }, charged: 2 });
    expect(fx.sandbox.anzData.creditsOf(fx.apiKey)).toBe(98);
  });

  it('enrich_person by profile URL or slug; a profile without contact details costs 1', async () => {
    const byUrl = await fx.invoke('anz_data.enrich_person', {
      profile_url: 'https://profiles.example/in/mia-thompson',
    });
    expect(lastRequest().body).toEqual({ profile_url: 'https://profiles.example/in/mia-thompson' });
    expect(byUrl.variables).toMatchObject({ full_name: 'Mia Thompson', email: null, phone: null });
    expect(byUrl.meta.credits?.charged).toBe(1);

    const bySlug = await fx.invoke('anz_data.enrich_person', { profile_slug: 'liam-murphy' });
    expect(lastRequest().body).toEqual({ profile_slug: 'liam-murphy' });
    expect(bySlug.variables).toMatchObject({ job_title: 'Engineering Manager', matched: true });
    expect(bySlug.meta.credits?.charged).toBe(2);
  });

  it('enrich_company sends an ABN typed with spaces as 11 digits to POST /enrich/company', async () => {
    const result = await fx.invoke('anz_data.enrich_company', { abn: '18 123 456 789' });
    const request = lastRequest();
    expect(request).toMatchObject({ method: 'POST', path: '/enrich/company' });
    expect(request.body).toEqual({ abn: '18123456789' });
    expect(result.output).toEqual({
      matched: true,
      company: {
        name: 'Wattle Analytics',
        legal_name: 'Wattle Analytics Pty Ltd',
        abn: '18123456789',
        domain: 'wattle-analytics.example',
        website: 'https://www.wattle-analytics.example',
        profile_url: 'https://profiles.example/company/wattle-analytics',
        industry: 'Software',
        size: '51-200',
        employee_count: 140,
        location: { city: 'Sydney', state: 'NSW', country: 'Australia' },
        technologies: ['AWS', 'Snowflake', 'dbt', 'HubSpot', 'React'],
        founded_year: 2014,
      },
      credits_charged: 1,
    });
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 1 });
  });

  it('enrich_company by domain, website and profile URL', async () => {
    const byDomain = await fx.invoke('anz_data.enrich_company', { domain: 'KaurISoftware.example' });
    expect(lastRequest().body).toEqual({ domain: 'kaurisoftware.example' });
    // A New Zealand company has no ABN.
    expect(byDomain.variables).toMatchObject({ name: 'Kauri Software', abn: null, employee_count: 42 });

    const byWebsite = await fx.invoke('anz_data.enrich_company', {
      website: 'https://www.tasmanfintech.example/about',
    });
    expect(lastRequest().body).toEqual({ website: 'https://www.tasmanfintech.example/about' });
    expect(byWebsite.variables).toMatchObject({ name: 'Tasman Fintech', abn: '20271828182' });

    const byProfile = await fx.invoke('anz_data.enrich_company', {
      profile_url: 'https://profiles.example/company/banksia-health',
    });
    expect(lastRequest().body).toEqual({ profile_url: 'https://profiles.example/company/banksia-health' });
    expect(byProfile.variables).toMatchObject({ industry: 'Hospitals and Health Care' });
  });

  it('search_people combines filters in one POST /search/people and is charged per person returned', async () => {
    const result = await fx.invoke('anz_data.search_people', {
      company: 'Wattle Analytics',
      department: 'engineering',
      limit: 5,
    });
    const request = lastRequest();
    expect(request).toMatchObject({ method: 'POST', path: '/search/people' });
    expect(request.body).toEqual({ company: 'Wattle Analytics', department: 'engineering', limit: 5 });
    expect(result.variables).toMatchObject({
      matched: true,
      names: ['Liam Murphy', 'Priya Sharma'],
      total: 2,
    });
    expect(result.output).toMatchObject({ returned: 2, truncated: false, credits_charged: 2 });
    // Search results carry no contact details.
    expect(result.output.people[0]).not.toHaveProperty('emails');
    expect(result.meta.credits).toEqual({ estimated: { min: 0, max: 5 }, charged: 2 });

    const managers = await fx.invoke('anz_data.search_people', {
      position: 'engineering manager',
      seniority: 'manager',
      limit: 2,
    });
    expect(lastRequest().body).toEqual({ position: 'engineering manager', seniority: 'manager', limit: 2 });
    expect(managers.output).toMatchObject({ returned: 2, total: 3, truncated: true });
    expect(managers.meta.credits?.charged).toBe(2);
  });

  it('seniority and department are free text the provider matches, sent as typed (no closed list of ours)', async () => {
    const executives = await fx.invoke('anz_data.search_people', {
      seniority: 'C-Suite',
      department: 'Executive',
      limit: 10,
    });
    expect(lastRequest().body).toEqual({ seniority: 'C-Suite', department: 'Executive', limit: 10 });
    expect(executives.output).toMatchObject({ matched: true });
    const unknown = await fx.invoke('anz_data.search_people', { seniority: 'Chief Happiness Wrangler' });
    // A value the provider does not know finds nobody; it is not refused.
    expect(unknown.output).toMatchObject({ matched: false, returned: 0 });
  });

  it('api_call forwards GET and POST under the base URL with the key attached', async () => {
    const balance = await fx.invoke('anz_data.api_call', { method: 'GET', endpoint: '/credits' });
    let request = lastRequest();
    expect(request).toMatchObject({ method: 'GET', path: '/credits', rawBody: '' });
    expect(request.headers.authorization).toBe(`Bearer ${fx.apiKey}`);
    expect(balance.output).toMatchObject({ status: 200, body: { credits_remaining: 100, credits_used: 0 } });
    expect(balance.meta.credits).toEqual({ estimated: { min: 0, max: 0 }, charged: 0 });

    const company = await fx.invoke('anz_data.api_call', {
      method: 'POST',
      endpoint: '/enrich/company',
      body: { domain: 'harbourside-legal.example' },
    });
    request = lastRequest();
    expect(request).toMatchObject({ method: 'POST', path: '/enrich/company' });
    expect(request.body).toEqual({ domain: 'harbourside-legal.example' });
    expect(company.output).toMatchObject({
      status: 200,
      body: { match: true, company: { name: 'Harbourside Legal', abn: '54 112 358 132' } },
    });
    // A forwarded lookup is estimated and its charge reported like the dedicated step's.
    expect(company.meta.credits).toEqual({ estimated: { min: 0, max: 1 }, charged: 1 });
  });
});
