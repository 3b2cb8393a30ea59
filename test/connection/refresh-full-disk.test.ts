import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { catalogInvokers } from '../support/catalog-invoke.js';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

const disk = await mountSmallDisk(512 * 1024);
const mounted = 'dir' in disk ? disk : undefined;
const skipped = 'unavailable' in disk ? ` (skipped: ${disk.unavailable})` : '';

describe.skipIf(!mounted)(
  `a refresh on a nearly full disk (a tmpfs of 512 KiB as TOOLSTEPS_HOME)${skipped}`,
  () => {
    const small = mounted as SmallDisk;
    let fx: TicketingFixture;
    let home: string;
    let round = 0;

    beforeEach(async () => {
      round += 1;
      home = path.join(small.dir, `home-${round}`);
      await mkdir(home);
      fx = await ticketingFixture();
    });
    afterEach(async () => {
      await small.free();
      await fx.close();
    });
    afterAll(async () => {
      await small.unmount();
    });

    /** A runtime over the file store in `home`, as one process of the CLI would have. */
    const processOver = (store: FileConnectionStore) => {
      const runtime = new Runtime({ store, clock: fx.clock, retry: { random: () => 0.5 } });
      return catalogInvokers(runtime, fx.connection.id);
    };
    const refreshes = () => fx.sandbox.ticketing.oauth.grants.refresh_token;
    const bearers = () =>
      fx.sandbox.server.requestLog
        .filter((entry) => entry.path.startsWith('/acme/api/'))
        .map((entry) => entry.headers.authorization);
    const connectionFiles = async () =>
      (await readdir(path.join(home, 'connections'))).filter((name) => /\.(tmp|lock)$/.test(name));

    /** The connection saved, its access token past its 30 minutes (the next call refreshes), and the disk then filled to one free page. */
    const storedOnFullDisk = async () => {
      const store = new FileConnectionStore(home);
      await store.put(fx.connection);
      fx.clock.advance(31 * 60_000);
      await small.fill(1);
      return store;
    };

    it('with one page free, the refresh is made and its pair kept: after space is freed the next call saves and uses it, one refresh in all', async () => {
      const store = await storedOnFullDisk();

      // The lock file takes the last page, so the new pair cannot be saved in the connection's file.
      const first = await processOver(store).invoke('ticketing.list_tickets', { limit: 1 });
      expect(first.output.tickets.length).toBe(1);
      expect(refreshes()).toBe(1);
      expect(await connectionFiles()).toEqual([]);
      const stillStored = await new FileConnectionStore(home).get(fx.connection.id);
      expect(stillStored?.secrets.refreshToken).toBe(fx.connection.secrets.refreshToken);

      await small.free();
      // The next command is another process: it finds the pair where the first one kept it.
      const next = new FileConnectionStore(home);
      await processOver(next).invoke('ticketing.list_tickets', { limit: 1 });
      const saved = await next.get(fx.connection.id);
      expect(saved?.secrets.refreshToken).not.toBe(fx.connection.secrets.refreshToken);
      expect(bearers().slice(-2)).toEqual([
        `Bearer ${saved?.secrets.accessToken}`,
        `Bearer ${saved?.secrets.accessToken}`,
      ]);
      expect(refreshes()).toBe(1);
      // Saved, the pair is the connection's: a third process refreshes nothing.
      await processOver(new FileConnectionStore(home)).invoke('ticketing.list_tickets', { limit: 1 });
      expect(refreshes()).toBe(1);
    });

    it('without room reserved for the answer, nothing is sent: retryable, the refresh token unspent, and it refreshes once space is freed', async () => {
      const store = new FileConnectionStore(home);
      await store.put(fx.connection);
      await rm(path.join(home, 'connections', `${fx.connection.id}.json.refresh`), { force: true });
      fx.clock.advance(31 * 60_000);
      await small.fill(1);

      const error = await processOver(store)
        .invoke('ticketing.list_tickets', { limit: 1 })
        .catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({
        code: 'storage_unavailable',
        retryable: true,
        sent: false,
        errno: 'ENOSPC',
      });
      expect(refreshes()).toBe(0);
      expect(await connectionFiles()).toEqual([]);

      await small.free();
      await processOver(new FileConnectionStore(home)).invoke('ticketing.list_tickets', { limit: 1 });
      expect(refreshes()).toBe(1);
      const saved = await store.get(fx.connection.id);
      expect(bearers().at(-1)).toBe(`Bearer ${saved?.secrets.accessToken}`);
    });

    it('a kept pair serves every call while the disk stays full, and is saved by the first call after', async () => {
      const store = await storedOnFullDisk();
      const full = processOver(store);
      for (let call = 0; call < 5; call += 1) await full.invoke('ticketing.list_tickets', { limit: 1 });
      expect(refreshes()).toBe(1);
      expect(new Set(bearers()).size).toBe(1);
      expect(await connectionFiles()).toEqual([]);

      await small.free();
      await full.invoke('ticketing.list_tickets', { limit: 1 });
      expect((await store.get(fx.connection.id))?.secrets.accessToken).toBe(
        bearers()[0]?.slice('Bearer '.length),
      );
      expect(refreshes()).toBe(1);
    });

    it('once the kept pair expires on a disk still full, calls fail retryably and send nothing; freed, it is saved and refreshed from', async () => {
      const store = await storedOnFullDisk();
      const full = processOver(store);
      await full.invoke('ticketing.list_tickets', { limit: 1 });
      fx.clock.advance(31 * 60_000); // the kept pair's access token has expired too
      for (let call = 0; call < 3; call += 1) {
        await expect(full.invoke('ticketing.list_tickets', { limit: 1 })).rejects.toMatchObject({
          code: 'storage_unavailable',
          retryable: true,
        });
      }
      expect(refreshes()).toBe(1);
      expect(await connectionFiles()).toEqual([]);

      await small.free();
      await full.invoke('ticketing.list_tickets', { limit: 1 });
      expect(refreshes()).toBe(2);
      expect(bearers().at(-1)).toBe(`Bearer ${(await store.get(fx.connection.id))?.secrets.accessToken}`);
    });
  },
);
