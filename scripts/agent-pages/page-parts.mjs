// What a docs/agents/ page tells a new user to do, read the way the check
// runs it: the `npm install` lines of its first ```sh block, its whole
// TypeScript examples (```ts blocks, each a file when its first line names
// one, as test/support/doc-examples.ts reads them) and any tsconfig setting
// the page says its runtime needs (`<!-- consumer tsconfig: {...} -->`,
// beside the sentence that says so to the reader).
import { readFileSync } from 'node:fs';

/** The package each page's runtime is: check:agents wants one copy of it, and no second copy of toolsteps' zod beside it. */
export const RUNTIME_CORE = {
  'ai-sdk': 'ai',
  anthropic: '@anthropic-ai/sdk',
  langchain: '@langchain/core',
  mastra: '@mastra/core',
  mcp: '@modelcontextprotocol/sdk',
  'openai-agents': '@openai/agents',
  openai: 'openai',
};

const SH_BLOCK = /^```sh\n([\s\S]*?)^```/m;
const TS_BLOCK = /^```(ts[^\n]*)\n([\s\S]*?)^```/gm;
const NAMED_FILE = /^\/\/ ([\w./-]+\.ts)\n/;
const TSCONFIG = /<!-- consumer tsconfig: (\{[^\n]*\}) -->/;

/** @returns {{ installs: string[][], examples: { file: string, code: string }[], tsconfig: object }} */
export function pageParts(file) {
  const text = readFileSync(file, 'utf8');
  const installs = (SH_BLOCK.exec(text)?.[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm install '))
    .map((line) => line.split(/\s+/).slice(2));
  const examples = [];
  for (const [, info, code] of text.matchAll(TS_BLOCK)) {
    if (info?.trim() !== 'ts' || code === undefined) continue;
    examples.push({ file: NAMED_FILE.exec(code)?.[1] ?? `example-${examples.length + 1}.ts`, code });
  }
  const tsconfig = JSON.parse(TSCONFIG.exec(text)?.[1] ?? '{}');
  return { installs, examples, tsconfig };
}
