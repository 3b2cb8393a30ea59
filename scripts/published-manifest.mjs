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
// The same pair packs the JSON documents the package exports (manifest.json,
// builder-openapi.json) without their indentation: the repository keeps them
// pretty so a change reads as a diff, but a consumer's code and the CLI only
// parse them, and the indentation was a sixth of the packed catalogue.
//
// Usage: node scripts/published-manifest.mjs strip|restore [folder]
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Scripts npm runs on a consumer's install, or that only make sense in a clone. */
export const CONTRIBUTOR_SCRIPTS = ['prepare', 'preinstall', 'install', 'postinstall'];

/** Exported JSON documents packed compact; a folder without one (a test's) packs none. */
export const COMPACTED_DOCUMENTS = ['manifest.json', 'builder-openapi.json'];

/** Where the original of `name` waits while the packed form stands in its place. */
const original = (folder, name) => path.join(folder, `${name}.unpacked`);

export function restore(folder = process.cwd()) {
  for (const name of ['package.json', ...COMPACTED_DOCUMENTS]) {
    const saved = original(folder, name);
    if (existsSync(saved)) renameSync(saved, path.join(folder, name));
  }
}

/** Writes `transform` of `folder`/`name` in its place, keeping the original beside it. */
function replaceForPacking(folder, name, transform) {
  const file = path.join(folder, name);
  if (!existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  writeFileSync(original(folder, name), text);
  writeFileSync(file, transform(text));
}

export function strip(folder = process.cwd()) {
  restore(folder);
  replaceForPacking(folder, 'package.json', (text) => {
    const manifest = JSON.parse(text);
    for (const name of CONTRIBUTOR_SCRIPTS) delete manifest.scripts?.[name];
    return `${JSON.stringify(manifest, null, 2)}\n`;
  });
  for (const name of COMPACTED_DOCUMENTS) {
    replaceForPacking(folder, name, (text) => `${JSON.stringify(JSON.parse(text))}\n`);
  }
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
