import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../../src/disk/stamped-file-cache.js';
import { FileSubscriptionStore } from '../../../src/store/files/file-subscription-store.js';
import { useTempDir } from '../../support/temp-dir.js';
import { subscriptionFor } from '../../triggers/trigger-fixtures.js';

const ID = 'sub_00000000000000c3';

/** A reader whose clock runs ahead, so every file it reads counts as settled and is kept between calls. */
const settledReader = (home: string) =>
  new FileSubscriptionStore(home, { clock: { now: () => Date.now() + 10 * SETTLE_MS } });

describe('file subscription store: what the intake keeps between deliveries', () => {
  const home = useTempDir('toolsteps-subscription-cache-');

  it("sees another store's change on the next read: a rotated secret, a deactivation", async () => {
    const subscription = subscriptionFor('deployments.deployment_started', { id: ID });
    await new FileSubscriptionStore(home()).put({ ...subscription, secret: 'first-secret-0123456789' });
    const reader = settledReader(home());
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).toBe('first-secret-0123456789');
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).toBe('first-secret-0123456789');
    await new FileSubscriptionStore(home()).update(ID, (current) => ({
      ...current,
      secret: 'other-secret-0123456789',
    }));
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).toBe('other-secret-0123456789');
    await new FileSubscriptionStore(home()).update(ID, (current) => ({ ...current, active: false }));
    expect((await reader.getWithoutDeliveryTime(ID))?.active).toBe(false);
  });

  it('sees an edit in place of the same length, and a removal', async () => {
    const subscription = subscriptionFor('deployments.deployment_started', { id: ID });
    await new FileSubscriptionStore(home()).put({ ...subscription, secret: 'aaaa-secret-0123456789' });
    const reader = settledReader(home());
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).toBe('aaaa-secret-0123456789');
    const file = path.join(home(), 'subscriptions', `${ID}.json`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('aaaa-secret', 'bbbb-secret'));
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).toBe('bbbb-secret-0123456789');
    await new FileSubscriptionStore(home()).remove(ID);
    expect(await reader.getWithoutDeliveryTime(ID)).toBeUndefined();
  });

  it('hands out copies: a caller changing what it got changes nothing kept', async () => {
    await new FileSubscriptionStore(home()).put(
      subscriptionFor('deployments.deployment_started', { id: ID }),
    );
    const reader = settledReader(home());
    const first = await reader.getWithoutDeliveryTime(ID);
    if (!first) throw new Error('expected the subscription');
    first.secret = 'changed-by-a-caller-0000';
    expect((await reader.getWithoutDeliveryTime(ID))?.secret).not.toBe('changed-by-a-caller-0000');
  });

  it('get still carries the last delivery time, which the intake read skips', async () => {
    await new FileSubscriptionStore(home()).put(
      subscriptionFor('deployments.deployment_started', { id: ID }),
    );
    const reader = settledReader(home());
    await reader.recordDelivery(ID, 1_234);
    expect((await reader.get(ID))?.lastDeliveryAt).toBe(1_234);
    expect((await reader.getWithoutDeliveryTime(ID))?.lastDeliveryAt).toBeUndefined();
  });
});
