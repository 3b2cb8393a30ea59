import { describe, expect, it } from 'vitest';
import { anzDataStory } from '../../../cli/demo/anz-data-story.js';
import { type AnzDataFixture, anzDataFixture } from '../../steps/anz-data/anz-data-fixture.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { tellStory } from './demo-harness.js';

describe('the anz_data demo story', () => {
  let fx: AnzDataFixture;
  closeAfterEach(() => fx);

  it('enriches and searches, shows credits, and shows a bad ABN and an over-budget search refused unsent', async () => {
    fx = await anzDataFixture();
    const lines = await tellStory(anzDataStory, {
      sandbox: fx.sandbox,
      runtime: fx.runtime,
      stepLines: (stepId, result, note) => [
        `${stepId}${note ? ` (${note})` : ''}: credits ${result.meta.credits?.charged ?? '?'}`,
      ],
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        'anz_data.enrich_company (ABN with spaces): credits 1',
        'anz_data.search_people: credits 2',
        'anz_data.enrich_person: credits 2',
        'anz_data.enrich_person (no match: free): credits 0',
        '  requests sent to the provider: 0',
        'credits charged by the provider in this story: 5; balance 20 of 25',
      ]),
    );
    expect(lines.find((line) => line.startsWith('mistyped ABN:'))).toMatch(
      /InputError input_invalid.*modulus-89/,
    );
    expect(lines.find((line) => line.startsWith('search of 50'))).toMatch(
      /CreditError credit_budget_exceeded/,
    );
    expect(lines.filter((line) => line === '  requests sent to the provider: 0')).toHaveLength(2);
  });
});
