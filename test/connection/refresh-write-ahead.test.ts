import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenRefresher } from '../../src/connection/token-refresher.js';
import type { Connection } from '../../src/model/connection.js';
import { silentLogger } from '../../src/model/logger.js';
import type { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { spentMark } from '../../src/store/refresh-journal.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import { DelegatingConnectionStore } from '../support/delegating-connection-store.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/** The fixture's store, except that saving fails while `down` (a store that is away, as Redis in an outage). */
class FaultyStore extends DelegatingConnectionStore {
  down = false;
  readonly refreshJournal: MemoryConnectionStore['refreshJournal'];
  constructor(inner: MemoryConnectionStore) {
    super(inner);
    this.refreshJournal = inner.refreshJournal;
  }
  override async update(id: string, change: (current: Connection) => Connection) {
    if (this.down) throw Object.assign(new Error('store away'), { code: 'ECONNREFUSED' });
    return this.inner.update(id, change);
  }
}

describe('the refresh journal written ahead of the token endpoint', () => {
  let fx: TicketingFixture;
  afterEach(() => fx.close());
  const refreshes = () => fx.sandbox.ticketing.oauth.grants.refresh_token;

  it('another live process sending the same refresh token: nothing is sent from here; a dead one does not hold it', async () => {
    fx = await ticketingFixture();
    fx.clock.advance(31 * 60_000);
    const sending = {
      state: 'sending' as const,
      spent: spentMark(fx.connection.secrets.refreshToken as string),
      holder: 'another-process',
      host: os.hostname(),
      at: fx.clock.now(),
      until: fx.clock.now() + 60_000,
    };
    await fx.store.refreshJournal.write(fx.connection.id, { ...sending, pid: process.pid });
    await expect(fx.invoke('ticketing.list_tickets', { limit: 1 })).rejects.toMatchObject({
      code: 'timeout',
      retryable: true,
      sent: false,
    });
    expect(refreshes()).toBe(0);

    const exited = spawnSync(process.execPath, ['-e', '0']);
    await fx.store.refreshJournal.write(fx.connection.id, { ...sending, pid: exited.pid as number });
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(refreshes()).toBe(1);
  });

  it('a pair the store cannot save before the deadline is held, never reported as reauthorization_required, and saved by the next call', async () => {
    fx = await ticketingFixture();
    fx.clock.advance(31 * 60_000);
    const store = new FaultyStore(fx.store);
    const refresher = new TokenRefresher({
      store,
      clock: fx.clock,
      fetch: (...args) => fetch(...args),
      dispatcher: undefined,
      logger: silentLogger,
      marginMs: 5 * 60_000,
      saveDeadlineMs: 300,
    });
    store.down = true;
    const stored = (await store.get(fx.connection.id)) as Connection;
    const error = await refresher.fresh(ticketing, stored).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'storage_unavailable', retryable: true });
    expect(String((error as Error).message)).toContain('does not need re-authorisation');
    expect(refreshes()).toBe(1);
    // Still away: the next call tries the save again and fails the same way, sending nothing.
    await expect(refresher.fresh(ticketing, stored)).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(refreshes()).toBe(1);

    store.down = false;
    const fresh = await refresher.fresh(ticketing, stored);
    expect(fresh.secrets.refreshToken).not.toBe(stored.secrets.refreshToken);
    expect((await store.get(fx.connection.id))?.secrets).toEqual(fresh.secrets);
    expect(refreshes()).toBe(1);
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(refreshes()).toBe(1);
  });
});
