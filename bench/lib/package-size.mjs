import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { restore, strip } from '../../scripts/published-manifest.mjs';

const run = promisify(execFile);
const repository = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/**
 * What `npm pack` would put in the tarball from the built dist/ as it is:
 * packed and unpacked bytes and the file count. `--ignore-scripts` so it
 * measures the build the bench just made rather than building again; the
 * published manifest and compact JSON documents stand in for the
 * repository's own meanwhile, as prepack and postpack do around a real pack.
 */
export async function measurePackageSize() {
  strip(repository);
  try {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repository,
      maxBuffer: 16 << 20,
    });
    const [packed] = JSON.parse(stdout);
    return { packedBytes: packed.size, unpackedBytes: packed.unpackedSize, files: packed.entryCount };
  } finally {
    restore(repository);
  }
}
