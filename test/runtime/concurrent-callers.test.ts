import { afterEach, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

const CALLERS = 300;

/**
 * Issue 14: many callers sharing one connection at once (an agent fanning
 * out) must all succeed, as a bare fetch of the same requests does. Retries
 * are off so a transient failure (a socket, a deadline, the rate gate, the
 * connection binding) shows as an error instead of being hidden by a replay.
 */
describe('many concurrent invocations on one connection', () => {
  let fixture: TicketingFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('all succeed over real sockets, with no retry, no refresh and no rate-gate wait', async () => {
    fixture = await ticketingFixture({
      sandbox: { ticketing: { requestsPerMinute: 1_000_000 }, requestLogLimit: 10 * CALLERS },
      runtime: { retry: { maxRetries: 0 } },
    });
    const current = fixture;
    const before = await current.store.get(current.connection.id);
    const settled = await Promise.allSettled(
      Array.from({ length: CALLERS }, (_, index) =>
        index % 2 === 0
          ? current.invoke('ticketing.list_tickets', { limit: 25 })
          : current.invoke('ticketing.get_ticket_info', { ticket_id: 1 }),
      ),
    );
    const failures = settled.flatMap((outcome) =>
      outcome.status === 'rejected' ? [String(outcome.reason?.code ?? outcome.reason)] : [],
    );
    expect(failures).toEqual([]);
    for (const outcome of settled) {
      if (outcome.status !== 'fulfilled') continue;
      expect(outcome.value.meta.retries).toBe(0);
      expect(outcome.value.meta.rateLimitWaits).toBe(0);
    }
    const listed = settled.filter(
      (outcome) => outcome.status === 'fulfilled' && 'tickets' in (outcome.value.output as object),
    );
    expect(listed).toHaveLength(CALLERS / 2);
    // list_tickets sends one request, get_ticket_info two (the ticket, then its comments).
    const attempts = settled.reduce(
      (sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value.meta.attempts : 0),
      0,
    );
    expect(current.requests('ticketing')).toHaveLength(attempts);
    // No refresh: the stored connection is as it was, but for its last use (recorded once, not per call).
    const { lastUsedAt, ...after } = (await current.store.get(current.connection.id)) ?? {};
    expect(after).toEqual(before);
    expect(lastUsedAt).toBe(current.clock.now());
  });
});
