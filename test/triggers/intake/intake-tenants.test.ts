import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import { DEFAULT_TENANT } from '../../../src/model/tenant-id.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { createIntake } from '../../../src/triggers/intake/intake.js';
import { servedTenants } from '../../../src/triggers/intake/intake-tenants.js';
import { toNodeListener } from '../../../src/triggers/intake/node-listener.js';
import { createRegistry } from '../../../steps/index.js';
import { countingSubscriptions } from '../support/counting-subscriptions.js';
import { deploymentEvent, signDeployments } from '../trigger-fixtures.js';

const DEPLOYS = 'sub_00000000000000e5';
const NOW = Date.UTC(2026, 0, 1);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: Server | undefined;

afterEach(async () => {
  const open = server;
  server = undefined;
  if (open) await new Promise((resolve) => open.close(resolve));
});

describe('servedTenants', () => {
  it("makes a tenant's stores once when its first deliveries arrive together", async () => {
    let lookups = 0;
    const stores = { subscriptions: new MemorySubscriptionStore(), dedupe: new MemoryDedupeStore() };
    const tenants = servedTenants({
      tenants: async () => {
        lookups += 1;
        await pause(5);
        return stores;
      },
    });
    const all = await Promise.all(Array.from({ length: 16 }, () => tenants.get(DEFAULT_TENANT)));
    expect(new Set(all).size).toBe(1);
    expect(lookups).toBe(1);
    expect(await tenants.get(DEFAULT_TENANT)).toBe(all[0]);
    expect(lookups).toBe(1);
  });

  it('asks again for a tenant that held nothing, or whose lookup failed', async () => {
    const answers: (() => Promise<undefined>)[] = [
      async () => undefined,
      async () => {
        throw new Error('store unreachable');
      },
    ];
    const stores = { subscriptions: new MemorySubscriptionStore(), dedupe: new MemoryDedupeStore() };
    const tenants = servedTenants({ tenants: () => answers.shift()?.() ?? stores });
    expect(await tenants.get(DEFAULT_TENANT)).toBeUndefined();
    await expect(tenants.get(DEFAULT_TENANT)).rejects.toThrow('store unreachable');
    expect((await tenants.get(DEFAULT_TENANT))?.subscriptions).toBe(stores.subscriptions);
  });
});

describe('the intake, when a burst of deliveries is its first', () => {
  it("writes the subscription's delivery time once, not once per delivery", async () => {
    const { store: subscriptions, writes } = await countingSubscriptions(DEPLOYS);
    const clock = new ManualClock(NOW);
    const dedupe = new MemoryDedupeStore(clock);
    const intake = createIntake({
      // A lookup that takes a moment, as a shared store's does: the burst's deliveries all wait on it.
      tenants: async () => {
        await pause(5);
        return { subscriptions, dedupe };
      },
      triggers: createRegistry(),
      clock,
      handler: () => undefined,
    });
    const listening = createServer(toNodeListener(intake));
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const { port } = listening.address() as AddressInfo;
    const answers = await Promise.all(
      Array.from({ length: 16 }, async (_, index) => {
        const body = JSON.stringify(deploymentEvent('deployment.created', { id: `evt_burst${index}` }));
        const response = await fetch(`http://127.0.0.1:${port}/hooks/${DEPLOYS}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...signDeployments(body) },
        });
        return ((await response.json()) as { status: string }).status;
      }),
    );
    expect(answers).toEqual(Array(16).fill('started'));
    // The first delivery's time is written at once; the rest wait for the one trailing write.
    expect(writes).toHaveLength(1);
    expect(await intake.settle(1000)).toBe(0);
    expect(writes).toHaveLength(2);
  });
});
