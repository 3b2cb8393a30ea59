import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * Importing the catalogue, the kit, the agent runtimes or the MCP server
 * (toolsteps/steps, /kit, /agents, /mcp) builds no zod schema
 * (issue 37): every schema is built when something first reads it (a step's
 * `get input()`, a `builtOnce` shared schema, an integration's connection
 * `fields`). The first schema a process builds also compiles zod's own
 * functions, so a single one left at import costs far more than its share.
 * schemas-built-on-first-use.test.ts reads the sources of steps/; this runs
 * them, so a schema built at import through a helper (a spread that reads a
 * getter, a function called at the top level) is caught too.
 *
 * Counted in a child process of its own (the suite's workers share their
 * modules): every zod schema defines its `_zod` property once, when built.
 */

let root: string;

beforeAll(async () => {
  root = await transpileForChild(
    ['steps/index.ts', 'src/kit/index.ts', 'src/agents/index.ts', 'src/mcp/index.ts'],
    'toolsteps-no-schema',
  );
}, 120_000);

const module = (file: string) => JSON.stringify(pathToFileURL(path.join(root, file)).href);

/** Zod schemas built while `script` runs, after zod itself is loaded. */
function schemasBuiltBy(script: string): number {
  const child = `
    await import('zod');
    const define = Object.defineProperty;
    let built = 0;
    Object.defineProperty = function (target, key, descriptor) {
      if (key === '_zod') built += 1;
      return define(target, key, descriptor);
    };
    ${script}
    Object.defineProperty = define;
    process.stdout.write(String(built));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', child], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return Number(result.stdout);
}

it.each([
  ['the catalogue', 'steps/index.js'],
  ['the kit', 'src/kit/index.js'],
  ['the agent runtimes', 'src/agents/index.js'],
  ['the MCP server', 'src/mcp/index.js'],
])('importing %s builds no zod schema', (_, file) => {
  expect(schemasBuiltBy(`await import(${module(file)});`)).toBe(0);
});

it('counts the schemas a first read builds: the check above could fail', () => {
  const built = schemasBuiltBy(`
    const { createRegistry } = await import(${module('steps/index.js')});
    const registry = createRegistry();
    registry.requireStep('ticketing.create_ticket').input;
  `);
  expect(built).toBeGreaterThan(10);
});
