import { describe, expect, it } from 'vitest';
import { COMPANY_RECORDS } from '../../../sandbox/anz-data/anz-data-records.js';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { anzData } from '../../../steps/anz-data/integration.js';
import { isValidAbn } from '../../../steps/anz-data/lib/abn.js';
import { anzDataApi } from '../../../steps/anz-data/lib/operations.js';
import { createRegistry } from '../../../steps/index.js';

describe('anz_data in the catalogue', () => {
  it('lists every step in the manifest with schemas, credit rules and the exactly-one-of rule', () => {
    const manifest = buildManifest(createRegistry());
    expect(manifest.integrations.find((entry) => entry.id === 'anz_data')).toMatchObject({
      status: 'beta',
      connection: { kind: 'api_key' },
      apiCallMethods: ['GET', 'POST'],
    });
    const entries = manifest.steps.filter((entry) => entry.integration === 'anz_data');
    expect(entries).toHaveLength(4);
    for (const entry of entries) {
      expect(Object.keys((entry.input as { properties: object }).properties).length).toBeGreaterThan(0);
      expect(Object.keys((entry.output as { properties: object }).properties).length).toBeGreaterThan(0);
      expect(entry.credits?.basis).toMatch(/credit/i);
      expect(entry.idempotent).toBe(false);
    }
    const company = entries.find((entry) => entry.id === 'anz_data.enrich_company')!;
    expect(company.input).toMatchObject({
      oneOf: [
        { required: ['profile_url'] },
        { required: ['domain'] },
        { required: ['abn'] },
        { required: ['website'] },
      ],
    });
    const search = entries.find((entry) => entry.id === 'anz_data.search_people')!;
    expect((search.input as { anyOf: unknown[] }).anyOf).toHaveLength(6);
  });

  it('is found by searching for the provider kind', () => {
    const hits = createRegistry()
      .search('anz data enrichment')
      .map((hit) => hit.step.id);
    expect(hits.slice(0, 2).sort()).toEqual(['anz_data.enrich_company', 'anz_data.enrich_person']);
  });

  it('keeps every provider path in the one table', () => {
    expect(anzData.paths).toEqual({
      enrichPerson: '/enrich/person',
      enrichCompany: '/enrich/company',
      searchPeople: '/search/people',
      credits: '/credits',
    });
    expect(anzDataApi.searchPeople.fields).toHaveProperty('limit');
  });
});

describe('ABN checksum', () => {
  it('accepts valid ABNs with or without spaces', () => {
    expect(isValidAbn('51 824 753 556')).toBe(true);
    expect(isValidAbn('51824753556')).toBe(true);
    expect(isValidAbn('  51 824  753 556 ')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and non-digits', () => {
    expect(isValidAbn('51 824 753 557')).toBe(false);
    expect(isValidAbn('15 824 753 556')).toBe(false);
    expect(isValidAbn('5182475355')).toBe(false);
    expect(isValidAbn('518247535560')).toBe(false);
    expect(isValidAbn('51-824-753-556')).toBe(false);
    expect(isValidAbn('')).toBe(false);
  });

  it('holds for every sandbox company with an ABN', () => {
    const abns = COMPANY_RECORDS.flatMap((company) => (company.abn ? [company.abn] : []));
    expect(abns.length).toBeGreaterThan(4);
    for (const abn of abns) expect(isValidAbn(abn)).toBe(true);
  });
});
