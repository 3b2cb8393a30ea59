import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { Connection, connectionIdPattern } from '../../connection/connection.js';
import { KeyedMutex } from '../../coordination/keyed-mutex.js';
import { type FieldIssue, InputError, PermissionError, TimeoutError } from '../../errors/index.js';
import { unlinkIfPresent, writeFileAtomic } from '../../files/atomic-write.js';
import { defaultToolstepsHome } from '../../files/toolsteps-home.js';
import { checkRecord } from '../check-record.js';
import { LockedRecordStore } from '../locked-record-store.js';
import type { ConnectionStore } from './connection-store.js';

/**
 * A lock whose holder has not touched it for this long was left by a
 * crashed process. Holders touch their lock every quarter of this, however
 * long their work takes (a token refresh may wait on the network), so only
 * a dead holder's lock goes stale. Shorter than the give-up below, so a
 * crash delays the next refresh by seconds instead of failing it.
 */
const LOCK_STALE_MS = 5_000;
const LOCK_GIVE_UP_MS = 10_000;
const LOCK_POLL_MS = 15;

export interface FileConnectionStoreOptions {
  /** How long to wait for another process's lock before failing with a retryable TimeoutError. Default 10 s. */
  lockTimeoutMs?: number;
  /** A lock untouched for this long belonged to a crashed process and is broken. Default 5 s. */
  lockStaleMs?: number;
  /** Told about a connection file `list` skips (damaged, planted, a link); default `process.emitWarning`. */
  warn?: (message: string) => void;
}

const warnByDefault = (message: string) =>
  process.emitWarning(message, { code: 'TOOLSTEPS_CONNECTION_FILE_SKIPPED' });

/** A stored connection file we refuse to read; the message names the file, never its content. */
function unreadable(file: string, reason: string, issues: FieldIssue[] = []): InputError {
  return new InputError(`Connection file ${file} ${reason}; fix or remove it.`, issues, {
    context: { file },
  });
}

/**
 * The lock files held by the current async context, so work run under
 * `withConnectionLock` can call `put`, `update` and `remove` on the same id
 * without waiting for itself. A hold ends with its work: a task the work
 * started that outlives it no longer counts as the holder.
 */
const heldLocks = new AsyncLocalStorage<ReadonlyMap<string, { released: boolean }>>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A connection about to be stored, checked as `put` checks it: bad values
 * are an InputError (with the failing paths), not a raw schema error.
 */
export function checkConnection(value: Connection): Connection {
  return checkRecord(Connection, 'connection', value);
}

export { defaultToolstepsHome };

/**
 * One JSON file per connection under `<home>/connections`, so writers of
 * different connections never contend. Every write goes to a fresh temporary
 * file (mode 0600) that is fsynced and renamed over the target: a reader sees
 * the old file or the new one, never half of either. Every change (`put`,
 * `update`, `remove`) also takes the connection's lock file, and
 * `withConnectionLock` holds it across longer work, so two processes cannot
 * rotate the same refresh token at once.
 */
export class FileConnectionStore extends LockedRecordStore<Connection> implements ConnectionStore {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();
  private readonly lockTimeoutMs: number;
  private readonly lockStaleMs: number;
  private readonly warn: (message: string) => void;

  constructor(home: string = defaultToolstepsHome(), options: FileConnectionStoreOptions = {}) {
    super({ noun: 'connection', check: checkConnection });
    this.directory = path.join(home, 'connections');
    this.lockTimeoutMs = options.lockTimeoutMs ?? LOCK_GIVE_UP_MS;
    this.lockStaleMs = options.lockStaleMs ?? LOCK_STALE_MS;
    this.warn = options.warn ?? warnByDefault;
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
   * to 0700 when it is ours, refused when it belongs to someone else.
   */
  private async checkDirectory(): Promise<void> {
    const found = await fs.stat(this.directory).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    });
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
    return this.read(id);
  }

  /**
   * Reads one connection file. A symbolic link is refused (O_NOFOLLOW): it
   * could make us read, and later overwrite, a file outside the store. What
   * cannot be parsed is refused without its content in the error: a damaged
   * file still holds secrets.
   */
  private async read(id: string): Promise<Connection | undefined> {
    const file = this.fileFor(id);
    let text: string;
    try {
      const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if (!(await handle.stat()).isFile()) throw unreadable(file, 'is not a regular file');
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      if (errorCode(error) === 'ELOOP')
        throw unreadable(file, 'is a symbolic link, which the store never follows');
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw unreadable(file, 'is not valid JSON');
    }
    const parsed = Connection.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.join('.') || '(file)',
        message: 'invalid',
      }));
      throw unreadable(
        file,
        `is not a valid connection (${issues.map((issue) => issue.path).join(', ')})`,
        issues,
      );
    }
    if (parsed.data.id !== id) throw unreadable(file, 'holds a connection with another id');
    return parsed.data;
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
        this.read(id).catch((error: unknown) => {
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

  protected delete(id: string): Promise<boolean> {
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
      const release = await this.acquire(id, lock);
      const mine = { released: false };
      try {
        return await heldLocks.run(new Map([...(held ?? []), [lock, mine]]), work);
      } finally {
        mine.released = true;
        await release();
      }
    });
  }

  protected async write(connection: Connection): Promise<void> {
    await this.ensureDirectory();
    const target = this.fileFor(connection.id);
    await writeFileAtomic(target, `${JSON.stringify(connection, null, 2)}\n`);
  }

  /** Takes the lock file (O_EXCL), keeps it fresh while held, and returns its release. */
  private async acquire(id: string, lock: string): Promise<() => Promise<void>> {
    await this.ensureDirectory();
    const token = `${process.pid}.${randomBytes(8).toString('hex')}`;
    const started = Date.now();
    for (;;) {
      try {
        await fs.writeFile(lock, token, { flag: 'wx', mode: 0o600 });
        break;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      if (await this.breakIfStale(lock)) continue;
      if (Date.now() - started >= this.lockTimeoutMs) {
        throw new TimeoutError(
          `Timed out after ${this.lockTimeoutMs} ms waiting for another toolsteps process to release connection "${id}" (it may be refreshing its token). Try again.`,
          { context: { connection: id, lockFile: lock } },
        );
      }
      await sleep(LOCK_POLL_MS);
    }
    const heartbeat = setInterval(
      () => {
        const now = new Date();
        fs.utimes(lock, now, now).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.lockStaleMs / 4)),
    );
    heartbeat.unref();
    return async () => {
      clearInterval(heartbeat);
      // Remove the lock only while it is still ours: a holder stalled past
      // the stale window may have lost it to another process.
      const current = await fs.readFile(lock, 'utf8').catch(() => undefined);
      if (current === token) await fs.rm(lock, { force: true });
    };
  }

  /**
   * Removes the lock when its holder stopped touching it (a crash), and
   * says whether to try taking it again at once. Two waiters can find the
   * same stale lock; a breaker file lets only one of them remove it, after
   * checking that it is still the same untouched file, so the second never
   * removes the lock the first has just taken.
   */
  private async breakIfStale(lock: string): Promise<boolean> {
    const seen = await fs.stat(lock).catch(() => undefined);
    if (!seen) return true;
    if (Date.now() - seen.mtimeMs <= this.lockStaleMs) return false;
    const breaker = `${lock}.break`;
    try {
      await fs.writeFile(breaker, '', { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      const stuck = await fs.stat(breaker).catch(() => undefined);
      // A breaker outlives its few milliseconds only when its process crashed mid-break.
      if (stuck && Date.now() - stuck.mtimeMs > this.lockStaleMs) await fs.rm(breaker, { force: true });
      return false;
    }
    try {
      const again = await fs.stat(lock).catch(() => undefined);
      if (again && again.ino === seen.ino && again.mtimeMs === seen.mtimeMs)
        await fs.rm(lock, { force: true });
      return true;
    } finally {
      await fs.rm(breaker, { force: true });
    }
  }
}
