import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';

/**
 * Writes `data` to a fresh temporary file (mode 0600), fsyncs it and renames
 * it over `target`: a reader sees the old file or the new one, never half.
 * The temporary file is removed on every failure after it was made (a full
 * disk fails the write, not the open): it may hold part of a secret, and
 * nobody else would ever clean it up. `sync: false` skips the fsync, for a
 * caller whose record survives a power cut elsewhere (the dedupe store's
 * journal): readers still never see half a file, and a process killed after
 * the rename leaves the new file, which the kernel holds.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  { sync = true }: { sync?: boolean } = {},
): Promise<void> {
  const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await fs.open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  try {
    try {
      await handle.writeFile(data);
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

export const isMissingFile = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Deletes `file` and says whether it was there: a file already gone is no error. */
export async function unlinkIfPresent(file: string): Promise<boolean> {
  try {
    await fs.unlink(file);
    return true;
  } catch (error) {
    if (isMissingFile(error)) return false;
    throw error;
  }
}
