#!/usr/bin/env node
// Builds the package from the current sources into a staging folder and
// packs it there, exactly as `npm pack` packs the repository (prepack's
// build, then the published manifest), without touching the repository's
// own dist/ or package.json, which other tests and commands read meanwhile.
// The package tests and the package-size bench row use it.
//
// Usage: node scripts/pack-package.mjs <stage> <destination>   (prints the tarball's path)
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleCli } from './bundle-cli.mjs';
import { bundleLibrary } from './bundle-library.mjs';
import { bundleUi } from './bundle-ui.mjs';
import { COMPACTED_DOCUMENTS, strip } from './published-manifest.mjs';
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
  // A pack that died between strip and restore left the originals of an older
  // build beside them; strip would restore those over the fresh copies below.
  for (const name of ['package.json', ...COMPACTED_DOCUMENTS])
    rmSync(path.join(stage, `${name}.unpacked`), { force: true });
  for (const file of [
    'package.json',
    'LICENSE',
    'README.md',
    'manifest.json',
    'builder-openapi.json',
    'docs',
  ]) {
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

/** Packs a built stage as prepack leaves it (the published manifest) and answers the tarball's path. */
export async function packStage(stage, destination) {
  strip(stage);
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination],
    {
      cwd: stage,
    },
  );
  return path.join(destination, stdout.trim().split('\n').at(-1));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [stage, destination] = process.argv.slice(2);
  await buildStage(path.resolve(stage));
  console.log(await packStage(path.resolve(stage), path.resolve(destination)));
}
