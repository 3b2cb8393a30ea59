#!/usr/bin/env node
// Builds the package from the current sources into a staging folder and
// packs it there: the one way the published tarball is made (`npm run
// pack:staged`, `npm run release`, the package tests, `check:package`). The
// build, the published manifest and the compact JSON documents are written
// into the stage only, never into the repository's own dist/ or tracked
// files, which other tests and commands read meanwhile and which a pack cut
// short must not leave changed (`npm pack` in the clone itself refuses; see
// refuse-pack-in-place.mjs).
//
// Usage: node scripts/pack-package.mjs [stage] [destination]   (prints the tarball's path)
//   stage: default node_modules/.cache/pack-stage; destination: default the current folder
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleCli } from './bundle-cli.mjs';
import { bundleLibrary } from './bundle-library.mjs';
import { bundleUi } from './bundle-ui.mjs';
import { writePublishedForms } from './published-manifest.mjs';
import { copyPublishedTypes } from './published-types.mjs';

const run = promisify(execFile);
const repository = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = path.join(repository, 'node_modules/typescript/bin/tsc');

/**
 * tsc, the CLI bundle, the library bundle, the published declarations and the
 * UI kit's browser bundle with the reference page (dist/ui/),
 * into `stage`, which must lie inside the repository (under node_modules/.cache)
 * so the bundler resolves the CLI's dependencies from the project.
 */
export async function buildStage(stage) {
  mkdirSync(stage, { recursive: true });
  await run(process.execPath, [
    tsc,
    '-p',
    path.join(repository, 'tsconfig.build.json'),
    '--outDir',
    path.join(stage, 'dist'),
    '--incremental',
    '--tsBuildInfoFile',
    path.join(stage, 'build.tsbuildinfo'),
  ]);
  // Every file package.json's `files` names outside dist/ (built above), read from it so a file added
  // there is packed too (eval-scenario.schema.json was named there and missing from the tarball).
  const { files } = JSON.parse(readFileSync(path.join(repository, 'package.json'), 'utf8'));
  const copied = files.filter((file) => !file.startsWith('dist/'));
  for (const file of new Set(['package.json', ...copied, 'docs'])) {
    cpSync(path.join(repository, file), path.join(stage, file), { recursive: true });
  }
  await bundleCli({
    entry: path.join(stage, 'dist/cli/main.js'),
    outfile: path.join(stage, 'dist/cli/toolsteps.cjs'),
  });
  await bundleLibrary({ root: stage });
  copyPublishedTypes({ root: stage });
  await bundleUi({ outdir: path.join(stage, 'dist/ui') });
}

/**
 * Packs a built stage in its published form (the manifest without the
 * contributor scripts, the JSON documents compact) and answers the tarball's
 * path. `--ignore-scripts`: the stage is built already, and its own copy of
 * `prepack` is the repository's refusal.
 */
export async function packStage(stage, destination) {
  writePublishedForms(stage);
  mkdirSync(destination, { recursive: true });
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination],
    {
      cwd: stage,
    },
  );
  return path.join(destination, stdout.trim().split('\n').at(-1));
}

/** Where `npm run pack:staged` builds when given no stage: inside the repository, so the bundler resolves its dependencies. */
export const DEFAULT_STAGE = path.join(repository, 'node_modules/.cache/pack-stage');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [stage = DEFAULT_STAGE, destination = '.'] = process.argv.slice(2);
  await buildStage(path.resolve(stage));
  console.log(await packStage(path.resolve(stage), path.resolve(destination)));
}
