import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError, NotFoundError } from '../errors.js';
import { Connection, connectionIdPattern } from './connection.js';
import type { ConnectionStore } from './connection-store.js';
import { KeyedMutex } from './keyed-mutex.js';

const LOCK_STALE_MS = 30_000;
const LOCK_POLL_MS = 15;
const LOCK_GIVE_UP_MS = 10_000;

/** `$TOOLSTEPS_HOME`, or `~/.toolsteps`. */
export function defaultToolstepsHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLSTEPS_HOME || path.join(os.homedir(), '.toolsteps');
}

/**
 * One JSON file per connection under `<home>/connections`, so writers of
 * different connections never contend. Every write goes to a fresh temporary
 * file (mode 0600) that is fsynced and renamed over the target: a reader sees
 * the old file or the new one, never half of either. Read-modify-write
 * (`update`, used by token refresh) also takes a lock file, so two processes
 * cannot rotate the same refresh token at once.
 */
export class FileConnectionStore implements ConnectionStore {
  private readonly directory: string;
  private readonly mutex = new KeyedMutex();

  constructor(home: string = defaultToolstepsHome()) {
    this.directory = path.join(home, 'connections');
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
  }

  async get(id: string): Promise<Connection | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.fileFor(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return Connection.parse(JSON.parse(text));
  }

  async list(): Promise<Connection[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const ids = names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    const found = await Promise.all(ids.sort().map((id) => this.get(id)));
    return found.filter((item): item is Connection => item !== undefined);
  }

  async put(connection: Connection): Promise<void> {
    const valid = Connection.parse(connection);
    await this.mutex.run(valid.id, () => this.write(valid));
  }

  async update(id: string, change: (current: Connection) => Connection): Promise<Connection> {
    return this.mutex.run(id, () =>
      this.withLock(id, async () => {
        const current = await this.get(id);
        if (!current) throw new NotFoundError(`No connection with id "${id}".`);
        const next = Connection.parse(change(current));
        await this.write(next);
        return next;
      }),
    );
  }

  async remove(id: string): Promise<boolean> {
    return this.mutex.run(id, async () => {
      try {
        await fs.unlink(this.fileFor(id));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    });
  }

  private async write(connection: Connection): Promise<void> {
    await this.ensureDirectory();
    const target = this.fileFor(connection.id);
    const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await fs.open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(connection, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(temporary, target);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  private async withLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    await this.ensureDirectory();
    const lock = `${this.fileFor(id)}.lock`;
    const started = Date.now();
    for (;;) {
      try {
        const handle = await fs.open(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const stat = await fs.stat(lock).catch(() => undefined);
        // A lock older than any refresh could take was left by a crashed process.
        if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) {
          await fs.rm(lock, { force: true });
          continue;
        }
        if (Date.now() - started > LOCK_GIVE_UP_MS) {
          throw new Error(`Timed out waiting for the lock on connection "${id}".`);
        }
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
    }
    try {
      return await work();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }
}
