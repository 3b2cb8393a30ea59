#!/usr/bin/env node
// Copies the type declarations an installed package can reach into
// dist/types/: those of the exports map's entries and, transitively, every
// declaration they import. tsc emits one for every module, internal ones
// too, and more than half of them no consumer's compiler ever opens; the
// tarball carries only these.
//
// Usage: node scripts/published-types.mjs   (dist/{src,steps,sandbox}/**/*.d.ts -> dist/types/)
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repository = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The declarations reachable from `entries` (absolute .d.ts paths), following relative imports. */
export function reachableDeclarations(entries) {
  const seen = new Set();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    if (!existsSync(file)) throw new Error(`a published declaration imports ${file}, which tsc did not emit`);
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      pending.push(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    }
  }
  return [...seen].sort();
}

/** The `types` of every entry of the exports map, as emitted by tsc under `root`/dist/. */
export function entryDeclarations(manifest, root = repository) {
  return Object.values(manifest.exports)
    .filter((target) => typeof target === 'object' && target.types?.startsWith('./dist/types/'))
    .map((target) => path.join(root, 'dist', target.types.slice('./dist/types/'.length)));
}

/**
 * Copies the reachable declarations of the package at `root` and answers how
 * many. The copies lose their `sourceMappingURL` line: the declaration maps
 * point at TypeScript sources the tarball does not carry.
 */
export function copyPublishedTypes({ root = repository } = {}) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const target = path.join(root, 'dist/types');
  rmSync(target, { recursive: true, force: true });
  const files = reachableDeclarations(entryDeclarations(manifest, root));
  for (const file of files) {
    const copy = path.join(target, path.relative(path.join(root, 'dist'), file));
    mkdirSync(path.dirname(copy), { recursive: true });
    writeFileSync(copy, readFileSync(file, 'utf8').replace(/^\/\/# sourceMappingURL=.*\n?/m, ''));
  }
  return files.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) copyPublishedTypes();
