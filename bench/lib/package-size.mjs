import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { writePublishedForms } from '../../scripts/published-manifest.mjs';

const run = promisify(execFile);
const repository = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/**
 * What `npm run pack:staged` would put in the tarball from the built dist/ as
 * it is: packed and unpacked bytes and the file count. The files package.json
 * lists are copied into a staging folder and put in their published form
 * there (the manifest without contributor scripts, compact JSON documents),
 * so the repository's tracked files are never rewritten; `--ignore-scripts`
 * so it measures the build the bench just made rather than building again.
 */
export async function measurePackageSize() {
  const stage = path.join(repository, 'node_modules/.cache/package-size');
  rmSync(stage, { recursive: true, force: true });
  const { files } = JSON.parse(readFileSync(path.join(repository, 'package.json'), 'utf8'));
  for (const file of ['package.json', ...files]) {
    const from = path.join(repository, file);
    if (existsSync(from)) cpSync(from, path.join(stage, file), { recursive: true });
  }
  writePublishedForms(stage);
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: stage,
    maxBuffer: 16 << 20,
  });
  const [packed] = JSON.parse(stdout);
  return { packedBytes: packed.size, unpackedBytes: packed.unpackedSize, files: packed.entryCount };
}
