import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/** An Agent that counts the requests dispatched on it. */
class CountingAgent extends Agent {
  dispatched = 0;
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.dispatched += 1;
    return super.dispatch(options, handler);
  }
}

/**
 * The runtime's one `transport` option against the sandbox over real sockets:
 * which wire carries the steps' requests, and which fetch (on which
 * dispatcher) carries OAuth token requests, for each value of the table in
 * docs/transport.md.
 */
describe("the runtime's transport option", () => {
  let fx: TicketingFixture | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await fx?.close();
    fx = undefined;
  });

  it("'node-http' sends reads and writes without any fetch, and refreshes a token through the global fetch", async () => {
    const global = vi.spyOn(globalThis, 'fetch');
    fx = await ticketingFixture({ runtime: { transport: 'node-http' } });
    expect(fx.runtime.httpDispatcher).toBeUndefined();
    const read = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(read.output.ticket).toMatchObject({ id: 1 });
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: 'Over node:http',
      description: 'd',
    });
    expect(created.output.ticket).toMatchObject({ subject: 'Over node:http' });
    expect(global).not.toHaveBeenCalled();
    fx.clock.advance(31 * 60_000); // past the 30-minute token lifetime
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    // Only the token request went through a fetch, on fetch's own dispatcher.
    expect(global).toHaveBeenCalledTimes(1);
    expect(global.mock.calls[0]?.[1]).toMatchObject({ dispatcher: undefined });
  });

  it("'fetch' sends the steps through the global fetch on its own dispatcher", async () => {
    const global = vi.spyOn(globalThis, 'fetch');
    fx = await ticketingFixture({ runtime: { transport: 'fetch' } });
    expect(fx.runtime.httpDispatcher).toBeUndefined();
    await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(global).toHaveBeenCalledTimes(2);
    expect(global.mock.calls.map(([, init]) => (init as { dispatcher?: unknown }).dispatcher)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('{ fetch } sends the steps and the token requests through the given fetch', async () => {
    const given = vi.fn((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    fx = await ticketingFixture({ runtime: { transport: { fetch: given } } });
    expect(fx.runtime.fetch).toBe(given);
    await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(given).toHaveBeenCalledTimes(2);
    fx.clock.advance(31 * 60_000);
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    // Two step requests, one token request, one list.
    expect(given).toHaveBeenCalledTimes(4);
  });

  it("{ dispatcher } sends the steps straight on the embedder's dispatcher, and token requests on it through fetch", async () => {
    const agent = new CountingAgent();
    const global = vi.spyOn(globalThis, 'fetch');
    try {
      fx = await ticketingFixture({ runtime: { transport: { dispatcher: agent } } });
      expect(fx.runtime.httpDispatcher).toBe(agent);
      await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
      expect(agent.dispatched).toBe(2);
      expect(global).not.toHaveBeenCalled();
      fx.clock.advance(31 * 60_000);
      await fx.invoke('ticketing.list_tickets', { limit: 1 });
      expect(global).toHaveBeenCalledTimes(1);
      expect(global.mock.calls[0]?.[1]).toMatchObject({ dispatcher: agent });
    } finally {
      await fx?.close();
      fx = undefined;
      await agent.close();
    }
  });

  it('refuses a transport it does not know, and the options it replaced, before any request', () => {
    expect(() => new Runtime({ transport: 'http' as never })).toThrow(
      /transport must be 'undici', 'fetch', 'node-http', \{ dispatcher \} or \{ fetch \}; got "http"/,
    );
    expect(() => new Runtime({ transport: {} as never })).toThrow(TypeError);
    expect(() => new Runtime({ fetch: globalThis.fetch } as never)).toThrow(/pass transport: \{ fetch \}/);
    expect(() => new Runtime({ dispatcher: null } as never)).toThrow(/transport: 'fetch'/);
  });
});
