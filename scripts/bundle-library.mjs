#!/usr/bin/env node
// Bundles the library's public entries (the `exports` map of package.json)
// into ES modules under dist/lib/, with the code they share split into chunks.
//
// Why: the package used to ship every module as tsc emits it, comments and
// all, beside the CLI's own bundle of the same code: most of the tarball.
// One bundle per entry, with shared chunks, keeps one copy of each class
// across entries (an error thrown by `toolsteps/kit` code is the
// `toolsteps` class an embedder catches), drops the comments (the type
// declarations keep them, where an editor shows them) and the whitespace,
// and shortens local names (a tenth of the packed size), but keeps every
// function and class name, so a stack trace still reads. Dependencies and
// optional peers stay outside, resolved from where the package is installed.
//
// Usage: node scripts/bundle-library.mjs   (dist/{src,steps,sandbox} -> dist/lib/)
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const repository = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Each entry of the exports map that is code: its bundle's name and the
 * compiled module it starts from, under `compiled` (the package's dist/).
 */
export function libraryEntries(manifest, root = repository, compiled = path.join(root, 'dist')) {
  const entries = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target !== 'object' || !target.default?.startsWith('./dist/lib/')) continue;
    const name = path.basename(target.default, '.js');
    entries[name] = path.join(
      compiled,
      target.types.slice('./dist/types/'.length).replace(/\.d\.ts$/, '.js'),
    );
    if (subpath === '.' && name !== 'index')
      throw new Error('the main entry must bundle to dist/lib/index.js');
  }
  return entries;
}

/**
 * Bundles the package at `root` (its package.json, and its modules as tsc
 * compiled them under `compiled`, its dist/ by default) into `root`/dist/lib/.
 */
export async function bundleLibrary({ root = repository, compiled = path.join(root, 'dist') } = {}) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const outdir = path.join(root, 'dist/lib');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: libraryEntries(manifest, root, compiled),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external: [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})],
    chunkNames: 'chunks/[name]-[hash]',
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (result.warnings.length)
    throw new Error(`bundling the library gave ${result.warnings.length} warning(s)`);
}

/**
 * The packages and Node built-ins a bundle of dist/lib/ imports at load: its
 * static imports and those of the chunks it statically imports, read from
 * esbuild's metafile of the bundle with every package left outside. Dynamic
 * `import()`s are what a call loads when it needs it, so they are not
 * followed. What the bench measures an entry's import against
 * (bench/lib/import-cost.mjs), and what a test holds its load to.
 */
export async function importsAtLoad(bundle) {
  const absWorkingDir = path.dirname(path.resolve(bundle));
  const { metafile } = await build({
    entryPoints: [path.resolve(bundle)],
    absWorkingDir,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  const found = new Set();
  const seen = new Set();
  const visit = (input) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const imported of metafile.inputs[input]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) found.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(path.basename(bundle));
  return [...found].sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleLibrary();
