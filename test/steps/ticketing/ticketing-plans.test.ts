import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKETING_PLANS } from '../../../sandbox/ticketing/ticketing-state.js';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

/**
 * Steps are for every plan: an account on a plan below Enterprise (where the
 * sandbox, like the provider, refuses webhooks and triggers) still creates,
 * reads, updates and searches tickets, and its options still answer.
 */
let fx: TicketingFixture;
beforeAll(async () => {
  fx = await ticketingFixture();
});
afterAll(() => fx.close());

describe('steps on a plan below Enterprise', () => {
  for (const plan of TICKETING_PLANS.filter((name) => name !== 'enterprise')) {
    it(`${plan}: create, get, update and search a ticket; list assignees`, async () => {
      fx.sandbox.ticketing.account('acme').plan = plan;
      const created = await fx.invoke('ticketing.create_ticket', { subject: `On ${plan}`, description: 'd' });
      const id = created.output.ticket.id;
      expect((await fx.invoke('ticketing.get_ticket_info', { ticket_id: id })).output.ticket.subject).toBe(
        `On ${plan}`,
      );
      const updated = await fx.invoke('ticketing.update_ticket', { ticket_id: id, status: 'pending' });
      expect(updated.output.ticket.status).toBe('pending');
      const found = await fx.invoke('ticketing.search_tickets', { query: `"On ${plan}"` });
      expect(found.output.tickets.map((ticket) => ticket.id)).toContain(id);
      const assignees = await fx.registry.options(fx.runtime, 'ticketing.create_ticket', 'assignee', {
        connection: 'tickets-main',
        query: 'ada',
      });
      expect(assignees.items.map((item) => item.label)).toEqual(['Ada Admin']);
      // What the plan lacks is refused as a plan limit: webhooks, for triggers, on Team.
      if (plan !== 'team') return;
      const hooks = await fx
        .invoke('ticketing.api_call', { method: 'GET', endpoint: '/api/v2/webhooks' })
        .catch((error: unknown) => error);
      expect(hooks).toMatchObject({ code: 'plan_required' });
    });
  }
});
