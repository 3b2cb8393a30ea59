#!/usr/bin/env node
// Writes the published forms of package.json and the exported JSON documents
// into a staged copy of the package (scripts/pack-package.mjs makes it),
// never into the repository: a pack that rewrote the clone's own files and
// died before putting them back once left them changed.
//
// package.json: `prepare` builds dist/ when a contributor runs `npm install`
// in a clone (the README's first command). In the published tarball it would
// be an install script, which npm 11 lists as not yet allowed on every
// consumer's install, though dist/ is already in the tarball and nothing
// needs building. npm has no setting that keeps a script out of the packed
// manifest, so the staged copy's manifest goes without it, and without the
// other scripts that only make sense in a clone.
//
// The exported JSON documents (manifest.json, builder-openapi.json) are
// packed without their indentation: the repository keeps them pretty so a
// change reads as a diff, but a consumer's code and the CLI only parse them,
// and the indentation was a sixth of the packed catalogue.
//
// Usage: node scripts/published-manifest.mjs <staged folder>
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Scripts npm runs on a consumer's install, or that only make sense in a clone. */
export const CONTRIBUTOR_SCRIPTS = ['prepare', 'preinstall', 'install', 'postinstall', 'prepack', 'postpack'];

/** Exported JSON documents packed compact; a folder without one (a test's) packs none. */
export const COMPACTED_DOCUMENTS = ['manifest.json', 'builder-openapi.json'];

const repository = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Rewrites `folder`/`name` as `transform` of it, when the folder has one. */
function rewrite(folder, name, transform) {
  const file = path.join(folder, name);
  if (existsSync(file)) writeFileSync(file, transform(readFileSync(file, 'utf8')));
}

/**
 * Turns the package in `folder`, a staged copy, into its published form. The
 * repository itself is refused: its files are the ones git tracks.
 */
export function writePublishedForms(folder) {
  if (realpathSync(folder) === realpathSync(repository)) {
    throw new Error(
      'The published forms are written into a staged copy, never into the repository: run `npm run pack:staged`.',
    );
  }
  rewrite(folder, 'package.json', (text) => {
    const manifest = JSON.parse(text);
    for (const name of CONTRIBUTOR_SCRIPTS) delete manifest.scripts?.[name];
    return `${JSON.stringify(manifest, null, 2)}\n`;
  });
  for (const name of COMPACTED_DOCUMENTS)
    rewrite(folder, name, (text) => `${JSON.stringify(JSON.parse(text))}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [folder] = process.argv.slice(2);
  if (!folder) {
    console.error('usage: published-manifest.mjs <staged folder>');
    process.exit(2);
  }
  writePublishedForms(folder);
}
