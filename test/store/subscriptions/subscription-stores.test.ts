import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSubscriptionId, subscriptionUrl, toPublicSubscription } from '../../../src/model/subscription.js';
import { FileSubscriptionStore } from '../../../src/store/files/file-subscription-store.js';
import { useTempDir } from '../../support/temp-dir.js';
import { subscriptionFor, TICKETING_SECRET } from '../../triggers/trigger-fixtures.js';

const home = useTempDir('toolsteps-subscriptions-');

// What every store answers alike (memory, file, Redis, Postgres) is in ../store-contract.test.ts.
describe('file subscription store', () => {
  it('writes secrets 0600 in a 0700 directory next to connections, and survives a new store', async () => {
    const id = newSubscriptionId();
    await new FileSubscriptionStore(home()).put(subscriptionFor('ticketing.ticket_created', { id }));
    const file = path.join(home(), 'subscriptions', `${id}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8')).secret).toBe(TICKETING_SECRET);
    expect((await new FileSubscriptionStore(home()).get(id))?.id).toBe(id);
  });

  it('keeps the last delivery apart, so an update never loses it nor loses to it', async () => {
    const store = new FileSubscriptionStore(home());
    const id = newSubscriptionId();
    await store.put(subscriptionFor('ticketing.ticket_created', { id }));
    await store.recordDelivery(id, 7);
    await store.update(id, (current) => ({ ...current, active: false }));
    const stored = await store.get(id);
    expect(stored?.active).toBe(false);
    expect(stored?.lastDeliveryAt).toBe(7);
  });

  it('refuses ids that could leave its directory', async () => {
    await expect(new FileSubscriptionStore(home()).get('../connections/x')).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });
});

describe('public subscription view', () => {
  it('never carries the secret, and gives the URL to paste at the provider', () => {
    const subscription = subscriptionFor('ticketing.ticket_created', {
      id: 'sub_0123456789abcdef',
      target: 'https://agents.example.com/',
    });
    const shown = toPublicSubscription(subscription);
    expect(JSON.stringify(shown)).not.toContain(TICKETING_SECRET);
    expect(shown).toMatchObject({
      hasSecret: true,
      url: 'https://agents.example.com/hooks/sub_0123456789abcdef',
    });
    expect(subscriptionUrl(subscription)).toBe(shown.url);
  });
});
