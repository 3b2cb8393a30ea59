import { expect, it } from 'vitest';
import { contactDataStory } from '../../../cli/demo/contact-data-story.js';
import { tellStory } from './demo-harness.js';

it('tells the enrichment story with credits', async () => {
  const lines = await tellStory(contactDataStory, {
    stepLines: (stepId, result, note) => {
      const credits = result.meta.credits;
      return [
        `  ${stepId}${note ? ` (${note})` : ''}: ${result.meta.attempts} request(s)${credits ? `, credits ${credits.charged ?? '?'} (estimated ${credits.estimated.min}-${credits.estimated.max})` : ''}`,
        ...Object.entries(result.variables).map(
          ([name, value]) => `    ${name} = ${JSON.stringify(value).slice(0, 100)}`,
        ),
      ];
    },
  });
  const text = lines.join('\n');
  expect(text).toContain(
    'contact_data.find_contact (no match: free): 1 request(s), credits 0 (estimated 0-2)',
  );
  expect(text).toMatch(
    /contact_data\.enrich_contacts \(250 people, batches of 100\): 3 request\(s\), credits \d+ \(estimated 0-500\)/,
  );
  expect(text).toContain('240 matched, 10 no match (free), 0 failed, in 3 requests');
  expect(text).toMatch(/credit_budget_exceeded[^\n]*\n\s+requests sent to the provider: 0/);
  // What the provider reported charging adds up to what left the balance.
  const [, spent, before, after] = /reported them: (\d+); balance (\d+) -> (\d+)/.exec(text) ?? [];
  expect(Number(before) - Number(after)).toBe(Number(spent));
});
