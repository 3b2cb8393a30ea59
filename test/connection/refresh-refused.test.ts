import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/model/connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import type { ConnectionStore } from '../../src/store/connection-store.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { catalogInvokers } from '../support/catalog-invoke.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/** Spends the connection's refresh token as another client would: the provider rotates it, so ours is refused. */
async function spendElsewhere(fx: TicketingFixture, connection: Connection): Promise<void> {
  const spend = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}/oauth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'refresh_token',
      refresh_token: connection.secrets.refreshToken,
      client_id: 'toolsteps-cli',
    }),
  });
  expect(spend.status).toBe(200);
}

describe('a refresh token the provider refused is not sent again', () => {
  let fx: TicketingFixture;
  let home: string | undefined;
  afterEach(async () => {
    await fx.close();
    if (home) await rm(home, { recursive: true, force: true });
    home = undefined;
  });

  const processOver = (store: ConnectionStore) =>
    catalogInvokers(new Runtime({ store, clock: fx.clock, retry: { random: () => 0.5 } }), fx.connection.id);
  const refreshes = () => fx.sandbox.ticketing.oauth.grants.refresh_token;

  it('60 calls from two processes over one file store send one refresh request; all fail fast with reauthorization_required', async () => {
    fx = await ticketingFixture();
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-refused-'));
    await new FileConnectionStore(home).put(fx.connection);
    await spendElsewhere(fx, fx.connection);
    const before = refreshes();
    fx.clock.advance(31 * 60_000);
    // Two store instances over one folder stand for two processes: they share only the files.
    const processes = [
      processOver(new FileConnectionStore(home)),
      processOver(new FileConnectionStore(home)),
    ];
    const failures: unknown[] = [];
    for (let wave = 0; wave < 10; wave += 1) {
      const calls = processes.flatMap((invokers) =>
        [0, 1, 2].map(() => invokers.invoke('ticketing.list_tickets', { limit: 1 }).catch((error) => error)),
      );
      failures.push(...(await Promise.all(calls)));
    }
    expect(failures).toHaveLength(60);
    expect(refreshes() - before).toBe(1);
    for (const failure of failures) {
      expect(failure).toMatchObject({ code: 'reauthorization_required', retryable: false });
    }
    // Every call after the refusal sent nothing.
    expect(
      failures.filter((failure) => (failure as { sent?: unknown }).sent === false).length,
    ).toBeGreaterThanOrEqual(57);
    expect(JSON.stringify(failures)).not.toContain(fx.connection.secrets.refreshToken);
  });

  it('a reconnected connection (new secrets) refreshes again; the memory store remembers a refusal too', async () => {
    fx = await ticketingFixture();
    await spendElsewhere(fx, fx.connection);
    fx.clock.advance(31 * 60_000);
    for (let call = 0; call < 20; call += 1) {
      await expect(fx.invoke('ticketing.list_tickets', { limit: 1 })).rejects.toMatchObject({
        code: 'reauthorization_required',
      });
    }
    expect(refreshes()).toBe(2); // ours, and the one that spent it elsewhere

    // Reconnected: a new pair, already expired, so the next call refreshes it.
    const tokens = fx.sandbox.ticketing.issueTokens('acme');
    await fx.store.put({
      ...fx.connection,
      secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token as string },
      expiresAt: fx.clock.now() - 1,
      updatedAt: fx.clock.now(),
    });
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(refreshes()).toBe(3);
  });
});
