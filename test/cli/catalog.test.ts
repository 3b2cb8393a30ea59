import { describe, expect, it } from 'vitest';
import { Catalog } from '../../cli/catalog.js';
import { cliStep } from '../../cli/cli-context.js';
import { createRegistry } from '../../steps/index.js';

/**
 * `list` and `search` answer from manifest.json instead of
 * loading every step; they must say exactly what the registry would.
 */
describe('the CLI catalogue read from manifest.json', () => {
  const registry = createRegistry();
  const catalog = Catalog.read();

  it('ranks every query as the registry does', () => {
    const queries = [
      'zendesk',
      'zendesk create',
      'create ticket',
      'enrich contacts',
      'deploy',
      'users role',
      'x',
    ];
    for (const query of queries) {
      const ours = catalog.search(query).map((hit) => [hit.step.id, hit.score]);
      expect(ours, query).toEqual(registry.search(query).map((hit) => [hit.step.id, hit.score]));
    }
  });

  it('lists every step in the registry order', () => {
    expect(catalog.listSteps().map((step) => step.id)).toEqual(registry.listSteps().map((step) => step.id));
  });
});

describe('run loads one step', () => {
  it('finds every step of the registry in its own module, and the registry resolves the rest', async () => {
    for (const step of createRegistry().listSteps()) expect(await cliStep(step.id)).toBe(step);
    await expect(cliStep('ticketing.create_tickets')).rejects.toThrow(
      /Did you mean: ticketing.create_ticket/,
    );
    await expect(cliStep('../../src.index')).rejects.toThrow(/Unknown step/);
  });
});
