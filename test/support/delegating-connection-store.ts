import type { Connection } from '../../src/model/connection.js';
import type { ConnectionStore } from '../../src/store/connection-store.js';
import type { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';

/**
 * A connection store that hands every call to a fixture's store, for tests
 * that change one call (a save that fails, a save that is noted): they
 * override that method and keep the rest as the real store does it. The
 * refresh journal is not handed on: a test that wants it says so.
 */
export class DelegatingConnectionStore implements ConnectionStore {
  constructor(protected readonly inner: MemoryConnectionStore) {}
  get(id: string) {
    return this.inner.get(id);
  }
  list() {
    return this.inner.list();
  }
  put(connection: Connection) {
    return this.inner.put(connection);
  }
  update(id: string, change: (current: Connection) => Connection) {
    return this.inner.update(id, change);
  }
  remove(id: string) {
    return this.inner.remove(id);
  }
}
