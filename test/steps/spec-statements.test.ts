import { describe, expect, it } from 'vitest';
import { buildManifest } from '../../src/catalog/manifest.js';
import { createRegistry } from '../../steps/index.js';

/**
 * Statements of integrations.md that had only code behind them: each is
 * held here by what a user sees.
 */
const registry = createRegistry();

describe('"A tool step is found by searching the tool step search bar for the provider\'s name"', () => {
  // The spec hides the names; these are the providers behind T, C and D (provider facts),
  // and A's hidden name is searched by what the spec calls it.
  const names: [string, string][] = [
    ['ticketing', 'zendesk'],
    ['contact_data', 'lusha'],
    ['deployments', 'vercel'],
    ['anz_data', 'anz'],
  ];

  it.each(names)('%s: searching "%s" finds every step of it, its steps first', (integration, name) => {
    const hits = registry.search(name, 100).map((hit) => hit.step.id);
    const own = registry.listSteps(integration).map((step) => step.id);
    expect(hits).toEqual(expect.arrayContaining(own));
    expect(hits.slice(0, own.length).sort()).toEqual([...own].sort());
  });
});

describe('"A and C are in beta status"', () => {
  it('both integrations say beta in the manifest embedders render from; the others are stable', () => {
    const manifest = buildManifest(registry);
    const statuses = Object.fromEntries(
      manifest.integrations.map((integration: { id: string; status: string }) => [
        integration.id,
        integration.status,
      ]),
    );
    expect(statuses).toMatchObject({
      anz_data: 'beta',
      contact_data: 'beta',
      ticketing: 'stable',
      deployments: 'stable',
    });
  });
});
