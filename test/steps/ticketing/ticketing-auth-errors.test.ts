import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

let fx: TicketingFixture;
beforeEach(async () => {
  fx = await ticketingFixture();
});
afterEach(() => fx.close());

/** Points the fixture's connection at the tokens of another seeded user (2: an agent, 3: an end user). */
async function signInAs(userId: number, scopes = ['read', 'write']) {
  const tokens = fx.sandbox.ticketing.issueTokens('acme', scopes, userId);
  await fx.store.put({
    ...fx.connection,
    secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
  });
}

describe('ticketing 403: the message names the missing permission', () => {
  it('an agent managing webhooks is told the Admin role is missing', async () => {
    await signInAs(2);
    const failure = fx.invoke('ticketing.api_call', {
      method: 'POST',
      endpoint: '/api/v2/webhooks',
      body: { webhook: { name: 'x', endpoint: 'http://127.0.0.1:9/hooks', subscriptions: [] } },
    });
    await expect(failure).rejects.toMatchObject({
      name: 'PermissionError',
      code: 'permission_denied',
      status: 403,
      message: expect.stringMatching(/lacks the Admin role/),
      hint: expect.stringMatching(/Admin role/),
    });
  });

  it('an end user reading a ticket is told the Agent role is missing', async () => {
    await signInAs(3);
    await expect(fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 })).rejects.toMatchObject({
      name: 'PermissionError',
      message: expect.stringMatching(/lacks the Agent role this needs \(Agent or Admin\)/),
    });
  });

  it('an agent works tickets without a refusal', async () => {
    await signInAs(2);
    const { output } = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 });
    expect(output.ticket.id).toBe(1);
  });
});

describe('ticketing 401: the hint follows the spec order (subdomain, permissions, reconnect)', () => {
  it('a refused token whose refresh is refused too', async () => {
    await fx.store.put({
      ...fx.connection,
      secrets: { accessToken: 'not-a-token-0000', refreshToken: 'not-a-refresh-token-0000' },
    });
    const error = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 1 }).catch((caught) => caught);
    expect(error).toMatchObject({ name: 'AuthError' });
    const order = ['subdomain', 'Admin or Agent role', 'reconnect'].map((word) => error.hint.indexOf(word));
    expect(order.every((at: number) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
