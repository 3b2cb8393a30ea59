import { closeSync, constants, fdatasync, promises as fs, openSync, writeSync } from 'node:fs';
import path from 'node:path';

interface Append {
  file: string;
  text: string;
  landed: () => void;
  failed: (error: unknown) => void;
}

/**
 * Appends `text` to `file` (made 0600 when new) and waits until the disk
 * holds it. The open, the write and the close are synchronous (a local
 * file answers them in microseconds, far less CPU than a FileHandle's
 * promise and thread pool hop for each); only the sync, which waits on the
 * disk, leaves the event loop.
 */
async function appendDurably(file: string, text: string): Promise<void> {
  const descriptor = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  try {
    const bytes = Buffer.from(text);
    for (let written = 0; written < bytes.length; ) {
      written += writeSync(descriptor, bytes, written, bytes.length - written);
    }
    await new Promise<void>((synced, failed) => {
      fdatasync(descriptor, (error) => (error ? failed(error) : synced()));
    });
  } finally {
    closeSync(descriptor);
  }
}

/** Makes a new file's name in `directory` durable: a synced file whose entry was lost is lost too. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Append-only files whose every append is on disk (fdatasync) before it
 * resolves, with group commit: the appends that arrive while one sync runs
 * go out together in one write and one sync. A sync takes milliseconds of
 * the disk and holds one of libuv's four pool threads meanwhile; one per
 * record capped a busy writer at a few hundred records a second, however
 * little CPU each took, and queued every other file operation behind them.
 * Each append is its own `write` on an O_APPEND descriptor, so appends of
 * several processes to one file interleave whole, never mixed.
 */
export class GroupCommitLog {
  private waiting: Append[] = [];
  private draining = false;
  /** Files whose directory entry this process has synced. */
  private readonly entered = new Set<string>();

  append(file: string, text: string): Promise<void> {
    return new Promise((landed, failed) => {
      this.waiting.push({ file, text, landed, failed });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.waiting.length) {
      const batch = this.waiting.splice(0);
      // Map.groupBy is Node 21; the package supports 20.18.
      const byFile = new Map<string, Append[]>();
      for (const item of batch) {
        const items = byFile.get(item.file);
        if (items) items.push(item);
        else byFile.set(item.file, [item]);
      }
      for (const [file, items] of byFile) {
        try {
          await appendDurably(file, items.map((item) => item.text).join(''));
          if (!this.entered.has(file)) {
            await syncDirectory(path.dirname(file));
            this.entered.add(file);
          }
          for (const item of items) item.landed();
        } catch (error) {
          for (const item of items) item.failed(error);
        }
      }
    }
    this.draining = false;
  }
}
