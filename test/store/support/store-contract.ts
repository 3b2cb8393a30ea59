import { describe, expect, it } from 'vitest';
import type { Connection } from '../../../src/model/connection.js';
import { newSubscriptionId } from '../../../src/model/subscription.js';
import type { ConnectionStore } from '../../../src/store/connection-store.js';
import type { SubscriptionStore } from '../../../src/store/subscription-store.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { subscriptionFor, TICKETING_SECRET } from '../../triggers/trigger-fixtures.js';

/** One backend's stores as the contract drives them, made fresh (empty) for each test. */
export interface ContractStores {
  connections: ConnectionStore;
  subscriptions: SubscriptionStore;
}

export interface ContractBackend {
  /** Whether the backend is here (a Redis or Postgres suite skips without one, except under CI). */
  enabled: boolean;
  /** Empty stores; called once per test. */
  open(): Promise<ContractStores>;
  /** Whether `put` checks a connection against its schema (the memory store keeps what the embedder gives it). */
  checksConnections: boolean;
}

/** Each test opens empty stores, so plain ids do. */
const freshId = (stem: string) => `contract-${stem}`;
const freshSubscriptionId = newSubscriptionId;

/**
 * What every connection and subscription store answers the same way, in
 * memory, in files, in Redis and in Postgres: one suite, declared once per
 * backend, so a backend that differs fails here rather than in production.
 */
export function describeStoreContract(name: string, backend: ContractBackend): void {
  describe.skipIf(!backend.enabled)(`${name} store contract`, () => {
    it('stores, reads, lists, updates and removes connections', async () => {
      const { connections } = await backend.open();
      const [first, second] = [freshId('b'), freshId('a')];
      await connections.put(acmeConnection(first, 'token-one'));
      await connections.put(acmeConnection(second, 'token-two'));
      expect(await connections.get(first)).toMatchObject({
        id: first,
        secrets: { accessToken: 'token-one' },
      });
      expect((await connections.list()).map((item) => item.id).sort()).toEqual([first, second].sort());
      const next = await connections.update(first, (current) => ({ ...current, label: 'Renamed' }));
      expect(next.label).toBe('Renamed');
      expect((await connections.get(first))?.label).toBe('Renamed');
      expect(await connections.remove(first)).toBe(true);
      expect(await connections.remove(first)).toBe(false);
      expect(await connections.get(first)).toBeUndefined();
      await expect(connections.update(first, (current) => current)).rejects.toMatchObject({
        code: 'not_found',
        message: `No connection with id "${first}".`,
      });
    });

    it('keeps a connection’s lifecycle (refresh token’s end, last use, last refresh, health), and loads one saved before it existed', async () => {
      const { connections } = await backend.open();
      const [kept, old] = [freshId('lifecycle'), freshId('old')];
      const lifecycle = {
        refreshExpiresAt: Date.UTC(2026, 1, 1),
        lastUsedAt: Date.UTC(2026, 0, 2),
        lastRefresh: { at: Date.UTC(2026, 0, 3), outcome: 'refused' as const, reason: 'invalid_grant' },
        health: { state: 'needs_reconnect' as const, checkedAt: Date.UTC(2026, 0, 3), reason: 'refused' },
      };
      await connections.put({ ...acmeConnection(kept, 'with-lifecycle'), ...lifecycle });
      // A connection as stores held them before any of these fields: nothing to add, it loads as it is.
      await connections.put(acmeConnection(old, 'before-lifecycle'));
      expect(await connections.get(kept)).toMatchObject({
        ...lifecycle,
        secrets: { accessToken: 'with-lifecycle' },
      });
      const loaded = await connections.get(old);
      expect(loaded).toMatchObject({ id: old, secrets: { accessToken: 'before-lifecycle' } });
      expect(loaded).not.toHaveProperty('refreshExpiresAt');
      expect(loaded).not.toHaveProperty('health');
      const healed = await connections.update(kept, (current) => ({
        ...current,
        health: { state: 'healthy', checkedAt: Date.UTC(2026, 0, 4) },
      }));
      expect(healed.health?.state).toBe('healthy');
      expect((await connections.list()).find((item) => item.id === kept)?.refreshExpiresAt).toBe(
        lifecycle.refreshExpiresAt,
      );
    });

    it('hands out copies: a caller editing what it read or wrote never changes the stored record', async () => {
      const { connections } = await backend.open();
      const id = freshId('copy');
      const given: Connection = acmeConnection(id, 'kept');
      await connections.put(given);
      given.secrets.accessToken = 'edited-after-put';
      const read = (await connections.get(id)) as Connection;
      read.secrets.accessToken = 'edited-after-get';
      expect((await connections.get(id))?.secrets.accessToken).toBe('kept');
    });

    it('update is atomic per id: concurrent read-change-writes all land', async () => {
      const { connections } = await backend.open();
      const id = freshId('counter');
      await connections.put({ ...acmeConnection(id), fields: { subdomain: 'acme', n: '0' } });
      await Promise.all(
        Array.from({ length: 12 }, () =>
          connections.update(id, (current) => ({
            ...current,
            fields: { ...current.fields, n: String(Number(current.fields.n) + 1) },
          })),
        ),
      );
      expect((await connections.get(id))?.fields.n).toBe('12');
    });

    it.runIf(backend.checksConnections)(
      'refuses a connection with bad fields, naming them, storing nothing',
      async () => {
        const { connections } = await backend.open();
        const id = freshId('bad');
        const bad = { ...acmeConnection(id), kind: 'telepathy' } as unknown as Connection;
        await expect(connections.put(bad)).rejects.toMatchObject({
          code: 'input_invalid',
          fields: [expect.objectContaining({ path: 'kind' })],
        });
        expect(await connections.get(id)).toBeUndefined();
      },
    );

    it('withConnectionLock, where the store has one, runs one holder at a time, and the store works inside it', async () => {
      const { connections } = await backend.open();
      if (!connections.withConnectionLock) return;
      const id = freshId('locked');
      await connections.put({ ...acmeConnection(id), fields: { subdomain: 'acme', n: '0' } });
      const events: string[] = [];
      const round = (who: string) =>
        connections.withConnectionLock?.(id, async () => {
          events.push(`in ${who}`);
          const current = (await connections.get(id)) as Connection;
          await new Promise((resolve) => setTimeout(resolve, 20));
          await connections.put({
            ...current,
            fields: { ...current.fields, n: String(Number(current.fields.n) + 1) },
          });
          events.push(`out ${who}`);
        });
      await Promise.all(['a', 'b', 'c'].map(round));
      for (let at = 0; at < events.length; at += 2) {
        expect(events[at + 1]).toBe((events[at] as string).replace('in', 'out'));
      }
      expect((await connections.get(id))?.fields.n).toBe('3');
    });

    it('the refresh journal, where the store has one, keeps an entry until cleared', async () => {
      const { connections } = await backend.open();
      const journal = connections.refreshJournal;
      if (!journal) return;
      const id = freshId('journal');
      expect(await journal.read(id)).toBeUndefined();
      const entry = { state: 'refused' as const, spent: 'f'.repeat(32), at: 1, updatedAt: 2 };
      await journal.write(id, entry);
      expect(await journal.read(id)).toEqual(entry);
      await journal.clear(id);
      expect(await journal.read(id)).toBeUndefined();
    });

    it('stores, lists, updates and removes subscriptions, and records deliveries apart from changes', async () => {
      const { subscriptions } = await backend.open();
      const id = freshSubscriptionId();
      await subscriptions.put(subscriptionFor('ticketing.ticket_created', { id }));
      expect((await subscriptions.get(id))?.secret).toBe(TICKETING_SECRET);
      await subscriptions.recordDelivery(id, 42);
      await subscriptions.update(id, (current) => ({ ...current, active: false }));
      expect((await subscriptions.list()).map((item) => [item.id, item.active, item.lastDeliveryAt])).toEqual(
        [[id, false, 42]],
      );
      expect(await subscriptions.remove(id)).toBe(true);
      expect(await subscriptions.get(id)).toBeUndefined();
      expect(await subscriptions.remove(id)).toBe(false);
    });

    it('refuses a subscription with bad fields, naming them', async () => {
      const { subscriptions } = await backend.open();
      const bad = subscriptionFor('ticketing.ticket_created', {
        id: freshSubscriptionId(),
        target: 'ftp://x',
      });
      await expect(subscriptions.put(bad)).rejects.toMatchObject({
        code: 'input_invalid',
        fields: [expect.objectContaining({ path: 'target' })],
      });
    });
  });
}
