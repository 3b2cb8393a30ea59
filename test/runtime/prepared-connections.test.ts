import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import type { Connection } from '../../src/model/connection.js';
import { bindConnection } from '../../src/runtime/bind-connection.js';
import { PreparedConnections } from '../../src/runtime/prepared-connections.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { settleOptions } from '../../src/runtime/runtime-options.js';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import getTicketInfo from '../../steps/ticketing/get-ticket-info.js';
import { ticketing } from '../../steps/ticketing/integration.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

const gate = { acquire: () => 0, observe: () => {}, learn: () => {}, abandon: () => {} };

function ticketingConnection(id: string, baseUrl: string, updatedAt: number): Connection {
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl },
    secrets: { accessToken: `token-of-${id}-${updatedAt}` },
    createdAt: updatedAt,
    updatedAt,
  };
}

describe('a connection prepared once per version of its record', () => {
  const sandboxes: Sandbox[] = [];
  let home: string | undefined;
  let fx: TicketingFixture | undefined;
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
    if (home) await rm(home, { recursive: true, force: true });
    home = undefined;
    await fx?.close();
    fx = undefined;
  });

  it('`connections add` writing the record again from another store of the same directory reaches the next call: its new base URL and token', async () => {
    const first = await startSandbox({ port: 0 });
    const second = await startSandbox({ port: 0 });
    sandboxes.push(first, second);
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-prepared-'));
    const connection = (sandbox: Sandbox, updatedAt: number): Connection => ({
      ...ticketingConnection('support', sandbox.baseUrl('ticketing', 'acme'), updatedAt),
      secrets: { accessToken: sandbox.ticketing.issueTokens('acme').access_token },
    });
    const now = Date.now();
    // The runtime's store and the one "another process" writes with keep caches of their own.
    const ours = new FileConnectionStore(home);
    await ours.put(connection(first, now));
    const runtime = new Runtime({ store: ours });
    const invoke = () => runtime.invoke(getTicketInfo, { connection: 'support', input: { ticket_id: 1 } });
    expect((await invoke()).output).toMatchObject({ ticket: { id: 1 } });
    const reached = (sandbox: Sandbox) =>
      sandbox.server.requestLog.filter((entry) => entry.path.startsWith('/acme/api/')).length;
    expect([reached(first), reached(second)]).toEqual([2, 0]);

    await new FileConnectionStore(home).put(connection(second, now + 1000));
    expect((await invoke()).output).toMatchObject({ ticket: { id: 1 } });
    // Sent with the old base URL and the new token, the call would have been refused by the first sandbox.
    expect([reached(first), reached(second)]).toEqual([2, 2]);
  });

  it('a token refresh prepares the connection again from the refreshed record, and the next call finds that one', async () => {
    fx = await ticketingFixture();
    const prepared = new PreparedConnections(settleOptions({ store: fx.store, clock: fx.clock }), () => gate);
    const deps = { store: fx.store, refresher: fx.runtime.refresher, prepared };
    const before = await bindConnection(getTicketInfo, 'tickets-main', deps);
    expect((await bindConnection(getTicketInfo, 'tickets-main', deps)).prepared).toBe(before.prepared);

    fx.clock.advance(31 * 60_000); // past the 30-minute token lifetime
    const refreshed = await bindConnection(getTicketInfo, 'tickets-main', deps);
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    const stored = await fx.store.get('tickets-main');
    expect(stored?.updatedAt).toBeGreaterThan(fx.connection.updatedAt);
    expect(refreshed.prepared).not.toBe(before.prepared);
    expect(refreshed.prepared.version.updatedAt).toBe(stored?.updatedAt);
    const next = await bindConnection(getTicketInfo, 'tickets-main', deps);
    expect(next.prepared).toBe(refreshed.prepared);
    // Nothing prepared holds a secret (the runtime's settings hold its store, which does): each
    // request reads the connection as it is then.
    const held = inspect({ ...next.prepared, settings: undefined }, { depth: 8 });
    expect(held).toContain('transports');
    for (const secret of [fx.connection.secrets.accessToken, stored?.secrets.accessToken]) {
      expect(held).not.toContain(secret);
    }
  });

  it('keeps at most its limit, dropping the connection used longest ago', () => {
    const prepared = new PreparedConnections(settleOptions({}), () => gate, 2);
    const [a, b, c] = ['a', 'b', 'c'].map((id) => ticketingConnection(id, 'https://acme.example.com', 1));
    const keptA = prepared.for(ticketing, a as Connection);
    const keptB = prepared.for(ticketing, b as Connection);
    expect(prepared.for(ticketing, a as Connection)).toBe(keptA);
    prepared.for(ticketing, c as Connection);
    expect(prepared.size).toBe(2);
    expect(prepared.for(ticketing, a as Connection)).toBe(keptA);
    expect(prepared.for(ticketing, b as Connection)).not.toBe(keptB);
  });

  it('another base URL in the fields prepares it again even when `updatedAt` stayed (an embedder rewrote the record)', () => {
    const prepared = new PreparedConnections(settleOptions({}), () => gate);
    const kept = prepared.for(ticketing, ticketingConnection('a', 'https://one.example.com', 1));
    expect(prepared.for(ticketing, ticketingConnection('a', 'https://one.example.com', 1))).toBe(kept);
    const moved = prepared.for(ticketing, ticketingConnection('a', 'https://two.example.com', 1));
    expect(moved).not.toBe(kept);
    expect(moved.baseUrl).toBe('https://two.example.com');
  });
});
