import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/model/connection.js';
import { newSubscriptionId } from '../../src/model/subscription.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { FileDedupeStore } from '../../src/store/files/file-dedupe-store.js';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk.js';
import { subscriptionFor } from '../triggers/trigger-fixtures.js';

const disk = await mountSmallDisk(256 * 1024);
const mounted = 'dir' in disk ? disk : undefined;
const skipped = 'unavailable' in disk ? ` (skipped: ${disk.unavailable})` : '';

/** A connection with secrets worth losing: a refresh token and a client secret. */
function secretConnection(id: string): Connection {
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', clientId: 'toolsteps-cli' },
    secrets: { accessToken: `at-${id}`, refreshToken: `rt-${id}`, clientSecret: `cs-${id}` },
    createdAt: 1,
    updatedAt: 1,
  };
}

/** Every file under `dir`, by its path inside it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const leftovers = (files: string[]) => files.filter((file) => /\.(tmp|lock|break)$/.test(file));

describe.skipIf(!mounted)(`a full disk leaves no file behind (a tmpfs of 256 KiB)${skipped}`, () => {
  const small = mounted as SmallDisk;
  let home: string;
  let round = 0;

  afterAll(async () => {
    await small.free();
    await small.unmount();
  });
  // A home of its own for each test, so one test's leftovers never fail another.
  beforeEach(async () => {
    await small.free();
    round += 1;
    home = path.join(small.dir, `home-${round}`);
    await mkdir(home);
  });

  it.each([0, 1])(
    'connection store with %i page(s) free: the failed put leaves no .tmp and no lock, and the next put does not wait',
    async (pages) => {
      const store = new FileConnectionStore(home);
      await store.put(secretConnection(`present-${round}`));
      const before = await filesUnder(home);
      await small.fill(pages);
      await expect(store.put(secretConnection(`blocked-${round}`))).rejects.toMatchObject({ code: 'ENOSPC' });
      const after = await filesUnder(home);
      expect(leftovers(after)).toEqual([]);
      expect(after.filter((file) => !file.startsWith('.filler'))).toEqual(before);

      await small.free();
      // Another process, as the next command would be: a lock left behind would hold it for the 5 s stale window.
      const next = new FileConnectionStore(home);
      const started = Date.now();
      await next.put(secretConnection(`blocked-${round}`));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect((await next.get(`blocked-${round}`))?.secrets.refreshToken).toBe(`rt-blocked-${round}`);
    },
  );

  it('connection store: an update that cannot be written keeps the stored file whole', async () => {
    const store = new FileConnectionStore(home);
    await store.put(secretConnection(`kept-${round}`));
    await small.fill(1);
    await expect(
      store.update(`kept-${round}`, (current) => ({ ...current, label: 'renamed' })),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(leftovers(await filesUnder(home))).toEqual([]);
    expect(await store.get(`kept-${round}`)).toEqual(secretConnection(`kept-${round}`));
  });

  it('subscription store: a put and a delivery record that cannot be written leave no .tmp', async () => {
    const store = new FileSubscriptionStore(home);
    const present = subscriptionFor('ticketing.ticket_created', { id: newSubscriptionId() });
    await store.put(present);
    await small.fill(0);
    const blocked = subscriptionFor('ticketing.ticket_created', { id: newSubscriptionId() });
    await expect(store.put(blocked)).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(store.recordDelivery(present.id, 42)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(leftovers(await filesUnder(home))).toEqual([]);
    await small.free();
    await store.put(blocked);
    expect((await store.get(blocked.id))?.secret).toBe(blocked.secret);
  });

  it('dedupe store: a claim that cannot be written leaves no empty claim file behind', async () => {
    const store = new FileDedupeStore(home);
    expect(await store.markOnce('seen-before', 60_000)).toBe(true);
    const before = await filesUnder(path.join(home, 'triggers', 'dedupe'));
    await small.fill(0);
    // Claims are appended to the claim log: those that fit in its last page land, the next fail.
    const claims = await Promise.allSettled(
      Array.from({ length: 400 }, (_, index) => store.claim(`event-${round}-${index}`, 60_000)),
    );
    const refused = claims.findIndex((claim) => claim.status === 'rejected');
    expect(claims[refused]).toMatchObject({ reason: { code: 'ENOSPC' } });
    expect(await filesUnder(path.join(home, 'triggers', 'dedupe'))).toEqual(before);
    await small.free();
    expect(await store.claim(`event-${round}-${refused}`, 60_000)).toMatchObject({ status: 'claimed' });
  });
});
