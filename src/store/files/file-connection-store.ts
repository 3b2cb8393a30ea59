import { AsyncLocalStorage } from 'node:async_hooks';
import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import { unlinkIfPresent, writeFileAtomic } from '../../disk/atomic-write.js';
import { defaultToolstepsHome } from '../../disk/toolsteps-home.js';
import { InputError, PermissionError } from '../../errors/index.js';
import type { Clock } from '../../model/clock.js';
import { type Connection, connectionIdPattern } from '../../model/connection.js';
import { KeyedMutex } from '../../values/keyed-mutex.js';
import { checkConnection } from '../check-connection.js';
import type { ConnectionStore } from '../connection-store.js';
import { LockedRecordStore } from '../locked-record-store.js';
import { ConnectionFileCache } from './connection-file-cache.js';
import { LOCK_GIVE_UP_MS, LOCK_STALE_MS, takeLockFile } from './connection-lock-file.js';
import { FileRefreshJournal } from './file-refresh-journal.js';
import { readConnectionFile } from './read-connection-file.js';

export interface FileConnectionStoreOptions {
  /** How long to wait for another process's lock before failing with a retryable TimeoutError. Default 10 s. */
  lockTimeoutMs?: number;
  /** A lock untouched for this long belonged to a crashed process and is broken. Default 5 s. */
  lockStaleMs?: number;
  /** Told about a connection file `list` skips (damaged, planted, a link); default `process.emitWarning`. */
  warn?: (message: string) => void;
  /** Where `get` reads the time a file last changed against (see ConnectionFileCache); default the system clock. */
  clock?: Pick<Clock, 'now'>;
}

const warnByDefault = (message: string) =>
  process.emitWarning(message, { code: 'TOOLSTEPS_CONNECTION_FILE_SKIPPED' });

/**
 * The lock files held by the current async context, so work run under
 * `withConnectionLock` can call `put`, `update` and `remove` on the same id
 * without waiting for itself. A hold ends with its work: a task the work
 * started that outlives it no longer counts as the holder.
 */
const heldLocks = new AsyncLocalStorage<ReadonlyMap<string, { released: boolean }>>();

/**
 * Holds running in this process, of every store. On Node 20 and 22 an
 * AsyncLocalStorage that has run once keeps a promise hook on for the life of
 * the process, which cost every promise of every later invocation (about a
 * tenth of an invocation's CPU): when the last hold ends, `heldLocks` is
 * disabled until the next one. Nothing is lost: with no hold running, no
 * context may count as a holder (a task that outlives its work no longer does).
 */
let runningHolds = 0;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

export { defaultToolstepsHome };

/**
 * One JSON file per connection under `<home>/connections`, so writers of
 * different connections never contend. Every write goes to a fresh temporary
 * file (mode 0600) that is fsynced and renamed over the target: a reader sees
 * the old file or the new one, never half of either. Every change (`put`,
 * `update`, `remove`) also takes the connection's lock file, and
 * `withConnectionLock` holds it across longer work, so two processes cannot
 * rotate the same refresh token at once. A connection with a refresh token
 * also has its refresh journal (`FileRefreshJournal`), made when it is stored.
 */
export class FileConnectionStore extends LockedRecordStore<Connection> implements ConnectionStore {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();
  private readonly lockTimeoutMs: number;
  private readonly lockStaleMs: number;
  private readonly warn: (message: string) => void;
  private readonly cache: ConnectionFileCache;
  readonly refreshJournal: FileRefreshJournal;

  constructor(home: string = defaultToolstepsHome(), options: FileConnectionStoreOptions = {}) {
    super({ noun: 'connection', check: checkConnection });
    this.directory = path.join(home, 'connections');
    this.lockTimeoutMs = options.lockTimeoutMs ?? LOCK_GIVE_UP_MS;
    this.lockStaleMs = options.lockStaleMs ?? LOCK_STALE_MS;
    this.warn = options.warn ?? warnByDefault;
    const clock = options.clock ?? { now: () => Date.now() };
    this.cache = new ConnectionFileCache(() => clock.now());
    this.refreshJournal = new FileRefreshJournal(
      (id) => `${this.fileFor(id)}.refresh`,
      () => this.ensureDirectory(),
    );
  }

  private fileFor(id: string): string {
    if (!connectionIdPattern.test(id)) {
      throw new InputError(`Invalid connection id "${id}".`, [
        { path: 'id', message: 'letters, digits, _ and -, up to 64 characters' },
      ]);
    }
    return path.join(this.directory, `${id}.json`);
  }

  private async ensureDirectory(): Promise<void> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    await this.checkDirectory();
  }

  /**
   * The directory holds every secret: no one else may list or read it.
   * `mkdir`'s mode applies only to a directory it creates, so one made
   * earlier (by hand, by a umask, by an older version) is checked: tightened
   * to 0700 when it is ours, refused when it belongs to someone else. The
   * stat is synchronous: every `get` makes it, and on a local directory it
   * takes microseconds, less than the promise form's thread pool hop.
   */
  private async checkDirectory(): Promise<void> {
    const found = statSync(this.directory, { throwIfNoEntry: false });
    if (!found) return;
    const uid = process.getuid?.();
    if (uid !== undefined && (found.mode & 0o077) !== 0) {
      if (found.uid !== uid) {
        throw new PermissionError(
          `The connection store ${this.directory} is open to others (mode ${(found.mode & 0o777).toString(8)}) and belongs to another user; refusing to read or write secrets there. Make it 0700 and yours.`,
          { context: { directory: this.directory } },
        );
      }
      await fs.chmod(this.directory, 0o700);
    }
  }

  async get(id: string): Promise<Connection | undefined> {
    await this.checkDirectory();
    return this.cache.read(this.fileFor(id), id);
  }

  async list(): Promise<Connection[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw error;
    }
    await this.checkDirectory();
    const ids = names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    // One damaged or planted file must not hide every other connection: skip it and say which.
    const found = await Promise.all(
      ids.sort().map((id) =>
        readConnectionFile(this.fileFor(id), id).catch((error: unknown) => {
          if (!(error instanceof InputError)) throw error;
          this.warn(
            `Skipped ${path.join(this.directory, `${id}.json`)}: ${error.fields[0]?.message ?? 'unreadable'}. ${error.message}`,
          );
          return undefined;
        }),
      ),
    );
    return found.filter((item): item is Connection => item !== undefined);
  }

  protected async delete(id: string): Promise<boolean> {
    await this.refreshJournal.remove(id);
    this.cache.forget(this.fileFor(id));
    return unlinkIfPresent(this.fileFor(id));
  }

  protected lock<T>(id: string, work: () => Promise<T>): Promise<T> {
    return this.withConnectionLock(id, work);
  }

  /**
   * Runs `work` while holding the connection's lock, against this process's
   * other callers and against every other process using the same home: for
   * a read-decide-write that spans more than one store call, such as a token
   * refresh (read the refresh token, ask the token endpoint, save the new
   * pair). Inside `work`, `get`, `put`, `update` and `remove` of the same id
   * run at once, without waiting for the lock `work` already holds. Waiting
   * longer than `lockTimeoutMs` for another holder fails with a retryable
   * `TimeoutError`.
   */
  async withConnectionLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const lock = `${this.fileFor(id)}.lock`;
    const held = heldLocks.getStore();
    const hold = held?.get(lock);
    if (hold && !hold.released) return work();
    return this.mutex.run(id, async () => {
      await this.ensureDirectory();
      const release = await takeLockFile(id, lock, {
        timeoutMs: this.lockTimeoutMs,
        staleMs: this.lockStaleMs,
      });
      const mine = { released: false };
      runningHolds += 1;
      try {
        return await heldLocks.run(new Map([...(held ?? []), [lock, mine]]), work);
      } finally {
        mine.released = true;
        runningHolds -= 1;
        if (runningHolds === 0) heldLocks.disable();
        await release();
      }
    });
  }

  protected async write(connection: Connection): Promise<void> {
    await this.ensureDirectory();
    const target = this.fileFor(connection.id);
    await writeFileAtomic(target, `${JSON.stringify(connection, null, 2)}\n`);
    this.cache.forget(target);
    // Room for a refresh's answer, made while there is room: see FileRefreshJournal.
    if (connection.secrets.refreshToken) await this.refreshJournal.reserve(connection.id);
  }
}
