import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isMissingFile, unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { parseRefreshEntry, RefreshEntry, type RefreshJournal } from '../refresh-journal.js';

/**
 * The room a journal file keeps: more than a refresh's answer holds (two
 * long JWTs and their scopes), so writing one into it never needs more.
 */
export const JOURNAL_RESERVE_BYTES = 16 * 1024;

const SPACE = 0x20;

function padded(text: string, size: number): Buffer {
  const body = Buffer.alloc(size, SPACE);
  body.write(text, 'utf8');
  return body;
}

/**
 * The file store's refresh journal: `<id>.json.refresh` next to the
 * connection's file, a fixed-size file (mode 0600) whose entry is written in
 * place and padded with spaces. Writing into pages a file already has needs
 * no new room, so once the reserve exists, a refresh can record what it
 * sends and what it got on a disk too full to save the connection itself:
 * the new pair then waits there, not in memory, for the next process. A
 * cleared journal is all spaces, so no token lingers in it.
 */
export class FileRefreshJournal implements RefreshJournal {
  readonly keepsTokens = true;

  constructor(
    private readonly fileOf: (id: string) => string,
    private readonly ready: () => Promise<void>,
  ) {}

  async read(id: string): Promise<RefreshEntry | undefined> {
    let text: string;
    try {
      const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
      const handle = await fs.open(this.fileOf(id), flags);
      try {
        // Only a regular file is a journal: anything else planted here reads as none.
        text = (await handle.stat()).isFile() ? (await handle.readFile('utf8')).trim() : '';
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (isMissingFile(error)) return undefined;
      throw error;
    }
    return parseRefreshEntry(text);
  }

  async write(id: string, entry: RefreshEntry): Promise<void> {
    await this.ready();
    const text = JSON.stringify(RefreshEntry.parse(entry));
    if (await this.writeInPlace(id, text)) return;
    // No reserve yet, or one too small: a new one, whole before it replaces the old.
    const size = Math.max(JOURNAL_RESERVE_BYTES, Buffer.byteLength(text) * 2);
    await writeFileAtomic(this.fileOf(id), padded(text, size));
  }

  async clear(id: string): Promise<void> {
    await this.writeInPlace(id, '');
  }

  /** Makes the reserve when the connection has none; best effort, as a refresh makes it too. */
  async reserve(id: string): Promise<void> {
    const present = await fs.lstat(this.fileOf(id)).catch(() => undefined);
    if (present) return;
    await writeFileAtomic(this.fileOf(id), padded('', JOURNAL_RESERVE_BYTES)).catch(() => undefined);
  }

  remove(id: string): Promise<boolean> {
    return unlinkIfPresent(this.fileOf(id));
  }

  /** Overwrites the whole file with `text` when it fits; false when there is no file or it is too small. */
  private async writeInPlace(id: string, text: string): Promise<boolean> {
    let handle: FileHandle;
    try {
      handle = await fs.open(this.fileOf(id), constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      if (isMissingFile(error)) return false;
      throw error;
    }
    try {
      const found = await handle.stat();
      if (!found.isFile() || Buffer.byteLength(text) > found.size) return false;
      const { size } = found;
      await handle.write(padded(text, size), 0, size, 0);
      await handle.sync();
      return true;
    } finally {
      await handle.close();
    }
  }
}
