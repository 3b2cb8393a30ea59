import { expect, it } from 'vitest';
import { startSandbox } from '../../../sandbox/index.js';
import { contactDataStory } from '../../../src/cli/demo/contact-data-story.js';
import type { DemoContext } from '../../../src/cli/demo/demo-context.js';
import { MemoryConnectionStore } from '../../../src/connection/memory-store.js';
import { Runtime } from '../../../src/runtime.js';
import { createRegistry } from '../../../steps/index.js';

it('tells the enrichment story with credits', async () => {
  const sandbox = await startSandbox();
  const runtime = new Runtime({ store: new MemoryConnectionStore() });
  const registry = createRegistry();
  const lines: string[] = [];
  const demo: DemoContext = {
    sandbox,
    runtime,
    registry,
    say: (text) => lines.push(`  ${text}`),
    heading: (text) => lines.push(`== ${text}`),
    async step(stepId, connection, input, note) {
      const result = await registry.invokeUnchecked(runtime, stepId, { connection, input });
      const credits = result.meta.credits;
      lines.push(
        `  ${stepId}${note ? ` (${note})` : ''}: ${result.meta.attempts} request(s)${credits ? `, credits ${credits.charged ?? '?'} (estimated ${credits.estimated.min}-${credits.estimated.max})` : ''}`,
      );
      for (const [name, value] of Object.entries(result.variables))
        lines.push(`    ${name} = ${JSON.stringify(value).slice(0, 100)}`);
      return result as never;
    },
  };
  try {
    await contactDataStory(demo);
  } finally {
    await sandbox.close();
  }
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
