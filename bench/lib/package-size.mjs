import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repository = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/**
 * What `npm pack` would put in the tarball from the built dist/ as it is:
 * packed and unpacked bytes and the file count. `--ignore-scripts` so it
 * measures the build the bench just made rather than building again.
 */
export async function measurePackageSize() {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repository,
    maxBuffer: 16 << 20,
  });
  const [packed] = JSON.parse(stdout);
  return { packedBytes: packed.size, unpackedBytes: packed.unpackedSize, files: packed.entryCount };
}
