import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors/index.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { anzDataFixture } from './anz-data-fixture.js';

/** Each case: a step, an input it must refuse, and the field path the refusal names. */
const refused: [string, string, unknown, string][] = [
  ['no lookup key', 'anz_data.enrich_person', {}, '(root)'],
  [
    'two lookup keys',
    'anz_data.enrich_person',
    { email: 'olivia.nguyen@wattle-analytics.example', profile_slug: 'olivia-nguyen' },
    'profile_slug',
  ],
  ['a malformed email', 'anz_data.enrich_person', { email: 'olivia at wattle' }, 'email'],
  [
    'a non-http profile URL',
    'anz_data.enrich_person',
    { profile_url: 'ftp://profiles.example/in/x' },
    'profile_url',
  ],
  ['a slug with a slash', 'anz_data.enrich_person', { profile_slug: 'in/olivia' }, 'profile_slug'],
  ['no company key', 'anz_data.enrich_company', {}, '(root)'],
  [
    'domain and ABN together',
    'anz_data.enrich_company',
    { domain: 'wattle-analytics.example', abn: '18 123 456 789' },
    'abn',
  ],
  ['an ABN failing the modulus-89 check', 'anz_data.enrich_company', { abn: '18 123 456 788' }, 'abn'],
  ['an ABN of 10 digits', 'anz_data.enrich_company', { abn: '1812345678' }, 'abn'],
  ['an ABN with letters', 'anz_data.enrich_company', { abn: '18 123 456 78O' }, 'abn'],
  ['an ABN with dashes', 'anz_data.enrich_company', { abn: '18-123-456-789' }, 'abn'],
  [
    'a domain given as a URL',
    'anz_data.enrich_company',
    { domain: 'https://wattle-analytics.example/' },
    'domain',
  ],
  [
    'a website without a scheme',
    'anz_data.enrich_company',
    { website: 'wattle-analytics.example' },
    'website',
  ],
  ['an empty search', 'anz_data.search_people', {}, '(root)'],
  ['a search with only a limit', 'anz_data.search_people', { limit: 5 }, '(root)'],
  ['a blank company filter', 'anz_data.search_people', { company: '   ' }, 'company'],
  ['an empty seniority', 'anz_data.search_people', { seniority: '  ' }, 'seniority'],
  ['a limit of 0', 'anz_data.search_people', { position: 'cto', limit: 0 }, 'limit'],
  ['a limit over 100', 'anz_data.search_people', { position: 'cto', limit: 101 }, 'limit'],
  ['a PUT', 'anz_data.api_call', { method: 'PUT', endpoint: '/enrich/person', body: {} }, 'method'],
  ['a DELETE', 'anz_data.api_call', { method: 'DELETE', endpoint: '/credits' }, 'method'],
  [
    'an absolute URL',
    'anz_data.api_call',
    { method: 'GET', endpoint: 'https://evil.example/credits' },
    'endpoint',
  ],
  ['a ".." escape', 'anz_data.api_call', { method: 'GET', endpoint: '/enrich/%2e%2e/%2e%2e/x' }, 'endpoint'],
  ['a body on GET', 'anz_data.api_call', { method: 'GET', endpoint: '/credits', body: { a: 1 } }, 'body'],
  // Unknown keys are refused, not dropped, as contact_data does: a typo must not become another lookup.
  [
    'an unknown key (a typo)',
    'anz_data.enrich_person',
    { emial: 'olivia.nguyen@wattle-analytics.example', profile_slug: 'olivia-nguyen' },
    'emial',
  ],
  ['an unknown company key', 'anz_data.enrich_company', { domain: 'x.example', acn: '1' }, 'acn'],
  ['an unknown search filter', 'anz_data.search_people', { company: 'Wattle', titel: 'cto' }, 'titel'],
  [
    'an API Call with headers',
    'anz_data.api_call',
    { method: 'GET', endpoint: '/credits', headers: { authorization: 'Bearer x' } },
    'headers',
  ],
];

describe('anz_data input rules: refused before anything is sent', () => {
  const fx = useFixture(anzDataFixture, 'all');

  it.each(refused)('refuses %s', async (_name, stepId, input, path) => {
    const error = await fx.invokeUnchecked(stepId, input).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('input_invalid');
    expect((error as InputError).fields.map((issue) => issue.path)).toContain(path);
    expect(fx.sent()).toHaveLength(0);
    expect(fx.sandbox.anzData.creditsOf(fx.apiKey)).toBe(100);
  });

  it('names the rule in the message an agent reads', async () => {
    await expect(
      fx.invoke('anz_data.enrich_company', {
        domain: 'tasmanfintech.example',
        website: 'https://x.example',
      }),
    ).rejects.toThrow(/exactly one of profile_url, domain, abn, website; got domain and website/);
    await expect(fx.invoke('anz_data.enrich_company', { abn: '51 824 753 557' })).rejects.toThrow(
      /modulus-89/,
    );
    await expect(fx.invoke('anz_data.search_people', { limit: 3 })).rejects.toThrow(
      /at least one of company, position, seniority, department/,
    );
    await expect(fx.invokeUnchecked('anz_data.enrich_person', { emial: 'a@b.example' })).rejects.toThrow(
      /unknown field `emial`; did you mean `email`\?/,
    );
    expect(fx.sent()).toHaveLength(0);
  });

  it('accepts the ABN the provider facts cite, with and without spaces', async () => {
    for (const abn of ['51 824 753 556', '51824753556', ' 51 824 753 556 ']) {
      const result = await fx.invoke('anz_data.enrich_company', { abn });
      // Valid, but no company in the sandbox holds it: a free no-match.
      expect(result.output).toEqual({ matched: false, company: null, credits_charged: 0 });
    }
    expect(fx.sent().map((entry) => JSON.parse(entry.rawBody))).toEqual([
      { abn: '51824753556' },
      { abn: '51824753556' },
      { abn: '51824753556' },
    ]);
  });
});
