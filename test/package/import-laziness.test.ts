import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLibrary, importsAtLoad } from '../../scripts/bundle-library.mjs';
import { MODULE_HOOK } from '../support/loaded-modules.js';
import { transpileForChild } from '../support/transpile-for-child.js';

/**
 * What importing each public entry loads (issue 37): the bundles the package
 * ships, made from the current sources, imported by the package's name in a
 * fresh process under the benchmark's loader hook, which lists every file
 * Node loads (ES modules and CommonJS alike). An entry loads the packages its
 * bundle imports at load (and theirs) and nothing else: whatever a call needs
 * beyond them it loads when called. This guards the laziness, not a time.
 */

/** Packages no entry needs until a call uses them: each is imported or required on first use. */
const LOADED_ON_FIRST_USE = [
  'jose',
  'json-p3',
  're2js',
  'undici',
  'fastify',
  'csv-parse',
  'commander',
  '@modelcontextprotocol/sdk',
  'ai',
  '@openai/agents',
  '@langchain/core',
  '@mastra/core',
  'ioredis',
  'bullmq',
  'pg',
];

const ENTRIES = [
  'src/index.ts',
  'src/kit/index.ts',
  'steps/index.ts',
  'sandbox/index.ts',
  'src/agents/index.ts',
  'src/mcp/index.ts',
  'src/eval/index.ts',
];

let root: string;
let scratch: string;
let manifest: { name: string; exports: Record<string, string | { default?: string }> };

beforeAll(async () => {
  const build = await transpileForChild(ENTRIES, 'toolsteps-import-laziness');
  root = path.join(build, 'import-package');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync('package.json', path.join(root, 'package.json'));
  await bundleLibrary({ root, compiled: build });
  manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-import-laziness-'));
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The packages a fresh process loads running `code` (an ES module) from the package's folder (itself left out), by name. */
function packagesLoadedBy(code: string): Set<string> {
  const log = path.join(scratch, `modules-${process.hrtime.bigint()}.log`);
  const result = spawnSync(process.execPath, ['--import', MODULE_HOOK, '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, TOOLSTEPS_MODULE_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const ours = pathToFileURL(root).href;
  const packages = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => !url.startsWith(ours))
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(packages);
}

const importing = (specifiers: string[]) =>
  specifiers.map((specifier) => `import ${JSON.stringify(specifier)};`).join('');

describe('importing an entry loads what its bundle imports at load, and nothing a call loads later', () => {
  const subpaths = ['.', './kit', './steps', './sandbox', './agents', './mcp', './eval'];
  for (const subpath of subpaths) {
    const specifier = path.posix.join('toolsteps', subpath);
    it(`import('${specifier}')`, async () => {
      const target = manifest.exports[subpath];
      expect(typeof target === 'object' && target.default?.startsWith('./dist/lib/')).toBe(true);
      const bundle = path.join(root, (target as { default: string }).default);
      const atLoad = await importsAtLoad(bundle);
      for (const name of LOADED_ON_FIRST_USE) expect(atLoad, name).not.toContain(name);
      const loaded = packagesLoadedBy(`await import(${JSON.stringify(specifier)});`);
      // Not required at load either (createRequire hides a require from the bundle's imports).
      expect(LOADED_ON_FIRST_USE.filter((name) => loaded.has(name))).toEqual([]);
      // Exactly what importing its dependencies alone loads: the bench's baseline for this entry.
      const baseline = packagesLoadedBy(importing(atLoad));
      expect([...loaded].sort()).toEqual([...baseline].sort());
    }, 60_000);
  }
});
