import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

/**
 * `transport: 'node-http'` (what the CLI's one-shot commands ask for) against
 * the sandbox over real sockets: the steps' requests go on node:http, never
 * through a fetch, while OAuth token requests still do; and `dispatcher: null`
 * alone keeps its documented meaning, the global fetch.
 */
describe("the runtime's transport option", () => {
  let fx: TicketingFixture;
  afterEach(async () => {
    vi.restoreAllMocks();
    await fx.close();
  });

  it("'node-http' sends reads and writes without any fetch, and refreshes a token through fetch", async () => {
    const given = vi.fn((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    const global = vi.spyOn(globalThis, 'fetch');
    fx = await ticketingFixture({ runtime: { transport: 'node-http', fetch: given } });
    expect(fx.runtime.httpDispatcher).toBeUndefined();
    const read = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(read.output.ticket).toMatchObject({ id: 1 });
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: 'Over node:http',
      description: 'd',
    });
    expect(created.output.ticket).toMatchObject({ subject: 'Over node:http' });
    // Only the fetch the runtime was given (on fetch's own dispatcher) ever ran: once, for the refresh.
    expect(given).not.toHaveBeenCalled();
    fx.clock.advance(31 * 60_000); // past the 30-minute token lifetime
    await fx.invoke('ticketing.list_tickets', { limit: 1 });
    expect(fx.sandbox.ticketing.oauth.grants.refresh_token).toBe(1);
    expect(given).toHaveBeenCalledTimes(1);
    expect(global).toHaveBeenCalledTimes(1);
  });

  it('dispatcher: null alone still sends the steps through the global fetch', async () => {
    const global = vi.spyOn(globalThis, 'fetch');
    fx = await ticketingFixture({ runtime: { dispatcher: null } });
    await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(global).toHaveBeenCalledTimes(2);
  });
});
