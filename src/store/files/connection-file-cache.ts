import { StampedFileCache } from '../../disk/stamped-file-cache.js';
import type { Connection } from '../../model/connection.js';
import { readConnectionFile } from './read-connection-file.js';

export { SETTLE_MS } from '../../disk/stamped-file-cache.js';

/**
 * The connections read from their files, kept while each file's stamp stays
 * the same (`StampedFileCache`: one `lstat` per get instead of an open,
 * read, check and parse). A link or anything else that is not a regular
 * file goes to `readConnectionFile`, which refuses it.
 */
export class ConnectionFileCache {
  private readonly cache: StampedFileCache<Connection>;

  constructor(now: () => number) {
    this.cache = new StampedFileCache(now);
  }

  read(file: string, id: string): Promise<Connection | undefined> {
    return this.cache.read(file, () => readConnectionFile(file, id));
  }

  /** Forgets a file this process changed or removed (its next read would see the change anyway). */
  forget(file: string): void {
    this.cache.forget(file);
  }
}
