import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * Creates `file` holding `text` (mode 0600) only if it does not exist, and
 * says whether it did: false when someone else's file is there. A write
 * that fails after the file was made (a full disk lets the open through and
 * fails the write) removes it again, so a lock or a claim that holds nothing
 * is never left behind for the next process to wait on.
 */
export async function createExclusive(file: string, text: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await fs.open(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Ours to remove: the open above made it, a moment ago.
    await fs.rm(file, { force: true });
    throw error;
  }
  return true;
}
