import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { pageParts, RUNTIME_CORE } from '../../scripts/agent-pages/page-parts.mjs';

const folder = path.join(process.cwd(), 'docs/agents');
const pages = readdirSync(folder)
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.replace(/\.md$/, ''));

/** A package an install argument names: `ai@6` is ai, `@types/json-schema@7` is @types/json-schema. */
const nameOf = (spec: string) => (spec.indexOf('@', 1) === -1 ? spec : spec.slice(0, spec.indexOf('@', 1)));

/**
 * `npm run check:agents` (scripts/check-agent-pages.mjs, a step of .ci/run)
 * installs each page's line and runs its example; it can only do so for a
 * page that has what it reads. A new page without them, or without its
 * runtime named, fails here, in the tests, before CI's slower step.
 */
it('gives check:agents, for every page of docs/agents/, an install line, one whole example and its runtime', () => {
  expect(pages.length).toBe(7);
  for (const page of pages) {
    const parts = pageParts(path.join(folder, `${page}.md`));
    const core = RUNTIME_CORE[page];
    expect(core, page).toBeDefined();
    expect(parts.installs[0]?.[0], page).toBe('toolsteps');
    expect(parts.installs.flat().map(nameOf), page).toContain(core);
    expect(parts.examples, page).toHaveLength(1);
  }
  // The one page whose runtime's own declarations need the library check off says so, and the check reads it.
  expect(pageParts(path.join(folder, 'mastra.md')).tsconfig).toEqual({ skipLibCheck: true });
});

it('lists every page in the versions table check:agents writes into agents-and-mcp.md', () => {
  const text = readFileSync(path.join(process.cwd(), 'docs/agents-and-mcp.md'), 'utf8');
  const table = text.slice(
    text.indexOf('<!-- check:agents versions:'),
    text.indexOf('<!-- check:agents versions end -->'),
  );
  for (const page of pages) expect(table, page).toContain(`](agents/${page}.md) |`);
});
