import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/model/connection.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import type { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { DelegatingConnectionStore } from '../support/delegating-connection-store.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/** A store that notes every save in a shared timeline, next to the requests the fetch below records. */
class TimelineStore extends DelegatingConnectionStore {
  constructor(
    inner: MemoryConnectionStore,
    private readonly timeline: string[],
  ) {
    super(inner);
  }
  override async update(id: string, change: (current: Connection) => Connection) {
    const saved = await this.inner.update(id, change);
    this.timeline.push(`saved refresh=${saved.secrets.refreshToken}`);
    return saved;
  }
}

describe('token refresh', () => {
  let fx: TicketingFixture;
  afterEach(() => fx.close());

  it('50 concurrent invocations on an expired connection make exactly one refresh, and all use the new token', async () => {
    fx = await ticketingFixture();
    fx.clock.advance(31 * 60_000); // past the 30-minute token lifetime
    const oldToken = fx.connection.secrets.accessToken;
    const results = await Promise.all(
      Array.from({ length: 50 }, () => fx.invoke('ticketing.list_tickets', { limit: 1 })),
    );
    expect(results).toHaveLength(50);
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    const stored = await fx.store.get(fx.connection.id);
    const newToken = stored?.secrets.accessToken;
    expect(newToken).not.toBe(oldToken);
    const apiCalls = fx.sandbox.server.requestLog.filter((entry) => entry.path.startsWith('/acme/api/'));
    expect(apiCalls).toHaveLength(50);
    expect(new Set(apiCalls.map((entry) => entry.headers.authorization))).toEqual(
      new Set([`Bearer ${newToken}`]),
    );
  });

  it('refreshes ahead of expiry, inside the 5-minute margin, and not before it', async () => {
    fx = await ticketingFixture();
    fx.clock.advance(24 * 60_000); // 6 minutes left
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(0);
    fx.clock.advance(2 * 60_000); // 4 minutes left
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  });

  it('saves the rotated refresh token before the new access token is used', async () => {
    fx = await ticketingFixture();
    const timeline: string[] = [];
    const store = new TimelineStore(fx.store, timeline);
    const recordingFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      const url = new URL(String(input));
      timeline.push(`${init?.method ?? 'GET'} ${url.pathname} auth=${headers.get('authorization') ?? '-'}`);
      return fetch(input, init);
    };
    const runtime = new Runtime({ store, clock: fx.clock, transport: { fetch: recordingFetch } });
    fx.clock.advance(40 * 60_000);
    await fx.registry.invoke(runtime, 'ticketing.list_tickets', {
      connection: fx.connection.id,
      input: { limit: 1 },
    });
    const stored = await fx.store.get(fx.connection.id);
    const saved = timeline.indexOf(`saved refresh=${stored?.secrets.refreshToken}`);
    const used = timeline.findIndex((line) => line.includes(`auth=Bearer ${stored?.secrets.accessToken}`));
    expect(timeline[0]).toMatch(/^POST \/ticketing\/acme\/oauth\/tokens/);
    expect(saved).toBeGreaterThan(0);
    expect(used).toBeGreaterThan(saved);
  });

  it('a token revoked mid-life gets one refresh and one replay', async () => {
    fx = await ticketingFixture();
    fx.sandbox.ticketing.oauth.revoke(fx.connection.secrets.accessToken!);
    const result = await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(result.output).toMatchObject({ has_more: true });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  });

  it('two processes sharing a file store make one refresh between them', async () => {
    fx = await ticketingFixture();
    const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-refresh-'));
    try {
      // Two store instances over one folder stand for two processes: they share only the files.
      const first = new FileConnectionStore(home);
      const second = new FileConnectionStore(home);
      await first.put(fx.connection);
      fx.clock.advance(31 * 60_000);
      const runtimes = [first, second].map((store) => new Runtime({ store, clock: fx.clock }));
      const results = await Promise.all(
        runtimes.flatMap((runtime) =>
          [1, 2, 3].map(() =>
            fx.registry.invoke(runtime, 'ticketing.list_tickets', {
              connection: fx.connection.id,
              input: { limit: 1 },
            }),
          ),
        ),
      );
      expect(results).toHaveLength(6);
      expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('short-lived tokens are not refreshed on every call', async () => {
    fx = await ticketingFixture();
    // A 4-minute token: the 5-minute margin alone would refresh it on every call.
    await fx.store.update(fx.connection.id, (current) => ({
      ...current,
      updatedAt: fx.clock.now(),
      expiresAt: fx.clock.now() + 4 * 60_000,
    }));
    for (let i = 0; i < 5; i += 1) await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(0);
    fx.clock.advance(2.5 * 60_000);
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
  });

  it('a refresh token used elsewhere fails with reauthorization_required', async () => {
    fx = await ticketingFixture();
    // Another client spends the refresh token first: rotation makes ours invalid.
    const spend = await fetch(`${fx.sandbox.baseUrl('ticketing', 'acme')}/oauth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: fx.connection.secrets.refreshToken,
        client_id: 'toolsteps-cli',
      }),
    });
    expect(spend.status).toBe(200);
    fx.clock.advance(31 * 60_000);
    const error = await fx.invoke('ticketing.list_tickets', {}).catch((e) => e);
    expect(error).toMatchObject({ name: 'AuthError', code: 'reauthorization_required' });
    expect(JSON.stringify(error)).not.toContain(fx.connection.secrets.refreshToken);
  });
});
