#!/usr/bin/env node
// Checks the package the way the ecosystem checks packages, on the tarball
// `npm pack` makes from the current sources: publint (the exports map, the
// files it names, the manifest's fields), strict, so a warning fails too; and
// @arethetypeswrong/cli (types for every export under Node's ESM resolution
// and bundlers). The package is ESM only (Node 20.18+), so attw's esm-only
// profile: a CommonJS `require` of it is not a supported way in.
//
// Usage: npm run check:package   (.ci/run runs it after the tests)
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildStage, packStage } from './pack-package.mjs';

const run = promisify(execFile);
const repository = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (name) => path.join(repository, 'node_modules/.bin', name);

const destination = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-pack-'));
let failed = false;
try {
  const stage = path.join(repository, 'node_modules/.cache/check-package');
  await buildStage(stage);
  const tarball = await packStage(stage, destination);
  console.log(`${path.basename(tarball)}: ${((await stat(tarball)).size / 1000).toFixed(0)} KB packed`);
  for (const [name, args] of [
    ['publint', ['run', '--strict', tarball]],
    ['attw', [tarball, '--profile', 'esm-only', '--format', 'table-flipped']],
  ]) {
    const outcome = await run(bin(name), args, { maxBuffer: 16 << 20 }).then(
      ({ stdout }) => ({ ok: true, stdout }),
      (error) => ({ ok: false, stdout: `${error.stdout ?? ''}${error.stderr ?? error.message}` }),
    );
    console.log(`${name}: ${outcome.ok ? 'ok' : 'FAILED'}\n${outcome.stdout.trim()}\n`);
    failed ||= !outcome.ok;
  }
} finally {
  await rm(destination, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
