import { describe, expect, it } from 'vitest';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { Registry } from '../../../src/catalog/registry.js';
import { createRegistry } from '../../../steps/index.js';
import { addConnection, cli, useCliHome } from '../../cli/cli-harness.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { anzDataFixture } from './anz-data-fixture.js';

/** The ids the ANZ steps had before every step was named verb_noun, and what they are now. */
const FORMER_IDS = {
  'anz_data.people_enrichment': 'anz_data.enrich_person',
  'anz_data.company_enrichment': 'anz_data.enrich_company',
  'anz_data.people_search': 'anz_data.search_people',
} as const;

describe('the former ANZ step ids', () => {
  it('resolve to the renamed steps through step() and requireStep()', () => {
    const registry = createRegistry();
    for (const [former, current] of Object.entries(FORMER_IDS)) {
      expect(registry.step(former)?.id).toBe(current);
      expect(registry.requireStep(former)).toBe(registry.step(current));
    }
  });

  it('are not listed or searched as steps of their own', () => {
    const registry = createRegistry();
    const ids = registry.listSteps().map((step) => step.id);
    for (const former of Object.keys(FORMER_IDS)) expect(ids).not.toContain(former);
    expect(registry.search('anz people enrichment').map((hit) => hit.step.id)).not.toContain(
      'anz_data.people_enrichment',
    );
  });

  it('appear in the manifest as aliases of the step, and only on renamed steps', () => {
    const manifest = buildManifest(createRegistry());
    for (const [former, current] of Object.entries(FORMER_IDS)) {
      expect(manifest.steps.find((entry) => entry.id === current)?.aliases).toEqual([former]);
      expect(manifest.steps.some((entry) => entry.id === former)).toBe(false);
    }
    expect(manifest.steps.find((entry) => entry.id === 'ticketing.create_ticket')).not.toHaveProperty(
      'aliases',
    );
  });

  it('cannot be taken by another step', () => {
    const source = createRegistry();
    const registry = new Registry();
    for (const integration of source.listIntegrations()) registry.registerIntegration(integration);
    const renamed = source.requireStep('anz_data.enrich_person');
    registry.registerStep(renamed);
    expect(() =>
      registry.registerStep({ ...renamed, id: 'anz_data.people_enrichment', aliases: [] }),
    ).toThrow(/"anz_data.people_enrichment" is already registered/);
  });

  describe('invoked', () => {
    const fx = useFixture(anzDataFixture);

    it('run the renamed step and report its current id', async () => {
      const result = await fx.invokeUnchecked('anz_data.people_enrichment', { profile_slug: 'mia-thompson' });
      expect(result.meta.step).toBe('anz_data.enrich_person');
      expect(fx.sent().map((entry) => entry.path)).toEqual(['/enrich/person']);
    });
  });
});

describe('the former ANZ step ids on the command line', () => {
  useCliHome('toolsteps-alias-', { env: ['TS_ALIAS_KEY'] });
  const fx = useFixture(anzDataFixture);

  it('describe and run resolve them', async () => {
    const described = await cli('describe', 'anz_data.company_enrichment', '--json');
    expect(described.code).toBe(0);
    expect(JSON.parse(described.out)).toMatchObject({ id: 'anz_data.enrich_company' });

    const added = await addConnection(
      'anz_data',
      'anz-cli',
      { env: 'TS_ALIAS_KEY', value: fx.apiKey, flag: '--api-key-env' },
      '--base-url',
      fx.sandbox.baseUrl('anz-data'),
    );
    expect(added.code).toBe(0);
    const ran = await cli(
      'run',
      'anz_data.people_search',
      '--connection',
      'anz-cli',
      '--input',
      '{"company":"Wattle"}',
      '--json',
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.out).meta).toMatchObject({ step: 'anz_data.search_people' });
    expect(fx.sent().map((entry) => entry.path)).toEqual(['/search/people']);
  });
});
