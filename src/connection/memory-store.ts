import { NotFoundError } from '../errors.js';
import type { Connection } from './connection.js';
import type { ConnectionStore } from './connection-store.js';
import { KeyedMutex } from './keyed-mutex.js';

/** A store for tests and embedders that persist connections themselves. */
export class MemoryConnectionStore implements ConnectionStore {
  private readonly items = new Map<string, Connection>();
  private readonly mutex = new KeyedMutex();

  constructor(initial: Connection[] = []) {
    for (const connection of initial) this.items.set(connection.id, structuredClone(connection));
  }

  async get(id: string): Promise<Connection | undefined> {
    const found = this.items.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(): Promise<Connection[]> {
    return [...this.items.values()].map((item) => structuredClone(item));
  }

  async put(connection: Connection): Promise<void> {
    await this.mutex.run(connection.id, async () => {
      this.items.set(connection.id, structuredClone(connection));
    });
  }

  async update(id: string, change: (current: Connection) => Connection): Promise<Connection> {
    return this.mutex.run(id, async () => {
      const current = this.items.get(id);
      if (!current) throw new NotFoundError(`No connection with id "${id}".`);
      const next = change(structuredClone(current));
      this.items.set(id, structuredClone(next));
      return structuredClone(next);
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.mutex.run(id, async () => this.items.delete(id));
  }
}
