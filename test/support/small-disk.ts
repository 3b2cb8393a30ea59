import { execFile } from 'node:child_process';
import { constants, promises as fs, statfsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FILLER = '.filler';

/** A tmpfs of a test's own, small enough to fill: what a nearly full disk looks like to the stores. */
export interface SmallDisk {
  dir: string;
  pageSize: number;
  /** Bytes a new file may still take. */
  freeBytes(): number;
  /** Fills the disk with one file until only `pages` pages are left. */
  fill(pages: number): Promise<void>;
  /** Deletes what `fill` wrote. */
  free(): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs of `bytes` on a fresh folder, or says why it cannot (no
 * root, or mount refused, as in an unprivileged container): the caller
 * skips with that reason.
 */
export async function mountSmallDisk(bytes: number): Promise<SmallDisk | { unavailable: string }> {
  if (process.platform !== 'linux') return { unavailable: `tmpfs needs Linux, not ${process.platform}` };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-small-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const said = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    return { unavailable: `mount -t tmpfs is not permitted here (${said})` };
  }
  const pageSize = statfsSync(dir).bsize;
  const freeBytes = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  const filler = path.join(dir, FILLER);
  return {
    dir,
    pageSize,
    freeBytes,
    async fill(pages) {
      const handle = await fs.open(
        filler,
        constants.O_CREAT | constants.O_WRONLY | constants.O_APPEND,
        0o600,
      );
      try {
        const page = Buffer.alloc(pageSize, 1);
        for (;;) {
          try {
            await handle.write(page);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
        const { size } = await handle.stat();
        await handle.truncate(Math.max(0, size - pages * pageSize));
      } finally {
        await handle.close();
      }
      if (freeBytes() !== pages * pageSize) {
        throw new Error(`the small disk has ${freeBytes()} bytes free, not ${pages} page(s)`);
      }
    },
    async free() {
      await rm(filler, { force: true });
    },
    async unmount() {
      await run('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
