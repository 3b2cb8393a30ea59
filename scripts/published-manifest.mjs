#!/usr/bin/env node
// Strips the contributor-only scripts from package.json while `npm pack` or
// `npm publish` packs it, and puts them back afterwards.
//
// Why: `prepare` builds dist/ when a contributor runs `npm install` in a
// clone (the README's first command). In the published tarball it would be an
// install script, which npm 11 lists as not yet allowed on every consumer's
// install, though dist/ is already in the tarball and nothing needs building.
// npm has no setting that keeps a script out of the packed manifest, so
// `prepack` runs `strip` and `postpack` runs `restore`; the original waits
// beside package.json and `restore` also runs from `strip` when a previous
// pack died between the two, so a failed pack never leaves the scripts lost.
//
// Usage: node scripts/published-manifest.mjs strip|restore [folder]
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Scripts npm runs on a consumer's install, or that only make sense in a clone. */
export const CONTRIBUTOR_SCRIPTS = ['prepare', 'preinstall', 'install', 'postinstall'];

const ORIGINAL = 'package.json.unpacked';

export function restore(folder = process.cwd()) {
  const saved = path.join(folder, ORIGINAL);
  if (existsSync(saved)) renameSync(saved, path.join(folder, 'package.json'));
}

export function strip(folder = process.cwd()) {
  restore(folder);
  const file = path.join(folder, 'package.json');
  const text = readFileSync(file, 'utf8');
  const manifest = JSON.parse(text);
  for (const name of CONTRIBUTOR_SCRIPTS) delete manifest.scripts?.[name];
  writeFileSync(path.join(folder, ORIGINAL), text);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, folder] = process.argv.slice(2);
  if (command === 'strip') strip(folder);
  else if (command === 'restore') restore(folder);
  else {
    console.error(`usage: published-manifest.mjs strip|restore [folder] (got ${command})`);
    process.exit(2);
  }
}
