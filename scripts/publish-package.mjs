#!/usr/bin/env node
// `npm run release -- [npm publish options]`: builds and packs the current
// sources in a staged copy (pack-package.mjs), then publishes that tarball
// with `npm publish <tarball>`, which runs none of the repository's
// lifecycle scripts (npm runs them only when it packs a folder). The
// repository's tracked files are never rewritten, whatever step fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildStage, DEFAULT_STAGE, packStage } from './pack-package.mjs';

const destination = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-release-'));
try {
  await buildStage(DEFAULT_STAGE);
  const tarball = await packStage(DEFAULT_STAGE, destination);
  console.log(`publishing ${tarball}`);
  const published = spawnSync('npm', ['publish', tarball, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = published.status ?? 1;
} finally {
  rmSync(destination, { recursive: true, force: true });
}
