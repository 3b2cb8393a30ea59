import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * A reader copies the docs' examples as they are, model name included: a
 * name the SDK announces as retiring prints its end-of-life warning on the
 * reader's first call and stops working on that day. The Anthropic SDK
 * ships its list of retiring models (and warns from it at run time); this
 * reads the installed SDK's list, so a release that adds a name fails here.
 */
const require = createRequire(import.meta.url);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const file = path.join(folder, item.name);
    if (item.isDirectory()) return markdownFiles(file);
    return item.name.endsWith('.md') ? [file] : [];
  });
}

function retiringModels(): Record<string, string> {
  // The list is internal to the SDK (not in its exports): reached by file, from the package's main entry.
  const sdk = path.dirname(require.resolve('@anthropic-ai/sdk'));
  return require(path.join(sdk, 'internal/data/deprecated-models.js')).DEPRECATED_MODELS;
}

it('names no Claude model the installed SDK announces as retiring', () => {
  const retiring = retiringModels();
  // The list is real (it names models today): an empty one would let every name through unread.
  expect(Object.keys(retiring).length).toBeGreaterThan(0);
  const named = markdownFiles('docs').flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/['"`](claude-[a-z0-9.-]+)['"`]/g)].map((match) => ({
      file,
      model: match[1] as string,
    })),
  );
  expect(named.length).toBeGreaterThan(0);
  const flagged = named
    .filter(({ model }) => model in retiring)
    .map(({ file, model }) => `${file}: ${model}`);
  expect(flagged).toEqual([]);
});
