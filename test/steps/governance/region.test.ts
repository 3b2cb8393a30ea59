import { describe, expect, it } from 'vitest';
import { parseConnectionFields, resolveBaseUrl } from '../../../src/connection/connection-fields.js';
import { governance } from '../../../steps/governance/integration.js';
import { PLATFORM_HOST, REGION_CODES } from '../../../steps/governance/lib/region.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { governanceFixture, seed } from './governance-fixture.js';

describe('region -> host', () => {
  it.each([
    ['au', 'https://api-f1db6c.stack.tryrelevance.com'],
    ['eu', 'https://api-d7b62b.stack.tryrelevance.com'],
    ['us', 'https://api-bcbe5a.stack.tryrelevance.com'],
  ])('%s -> %s', (region, host) => {
    expect(resolveBaseUrl(governance, { fields: { region, projectId: 'p1' } })).toBe(host);
  });

  it('has one table, with the three regions and the platform host', () => {
    expect(REGION_CODES).toEqual({ au: 'f1db6c', eu: 'd7b62b', us: 'bcbe5a' });
    expect(PLATFORM_HOST).toBe('tryrelevance.com');
  });

  it('accepts any letter case and refuses unknown regions', () => {
    expect(parseConnectionFields(governance, { region: ' EU ' }).region).toBe('eu');
    expect(() => parseConnectionFields(governance, { region: 'ap' })).toThrow(/region/);
    expect(() => parseConnectionFields(governance, {})).toThrow(/region/);
  });

  it('lets a baseUrl override replace the host, and refuses plain http off loopback', () => {
    expect(
      resolveBaseUrl(governance, {
        fields: { region: 'us', baseUrl: 'http://127.0.0.1:4010/governance/us/' },
      }),
    ).toBe('http://127.0.0.1:4010/governance/us');
    expect(() =>
      resolveBaseUrl(governance, { fields: { region: 'us', baseUrl: 'http://gateway.example' } }),
    ).toThrow(/https/);
  });
});

describe('each region is its own stack in the sandbox', () => {
  const fx = useFixture(governanceFixture);

  it("a key only works on its organization's region", async () => {
    await fx.connect('eu', { apiKey: seed.adminKey, region: 'eu' });
    await expect(
      fx.invoke('governance.create_project', { name: 'P', organization_id: seed.organizationId }, 'eu'),
    ).rejects.toMatchObject({ name: 'AuthError', status: 401 });
    expect(fx.sent()[0]!.path).toBe('/eu/latest/projects/create');
  });
});
