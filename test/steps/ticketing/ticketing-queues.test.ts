import { describe, expect, it } from 'vitest';
import { flipFault, resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/**
 * The queues agents work from, against the sandbox (issue 42): views and the
 * tickets each shows, suspended tickets; what each step read and what crossed the wire.
 */
describe('ticketing views and suspended tickets', () => {
  const fx = useFixture(ticketingFixture);
  const sent = () => fx.requests('ticketing').map((entry) => `${entry.method} ${entry.path}`);
  const account = () => fx.sandbox.ticketing.account('acme');

  it('list_views lists the active views in order, the switched-off one left out; offered as view_id options', async () => {
    const { output } = await fx.invoke('ticketing.list_views', {});
    expect(output.views.map((view) => view.title)).toEqual([
      'Open and new tickets',
      'Urgent unsolved tickets',
      'Support queue',
    ]);
    expect(output.next_page).toBeNull();
    expect(output.views[1]?.conditions?.all).toContainEqual({
      field: 'priority',
      operator: 'is',
      value: 'urgent',
    });
    const choices = await fx.registry.options(fx.runtime, 'ticketing.list_view_tickets', 'view_id', {
      connection: 'tickets-main',
    });
    expect(choices.items.map((item) => item.value)).toEqual([25001, 25002, 25003]);
    expect(choices.items[0]).toMatchObject({ label: 'Open and new tickets' });
  });

  it('list_view_tickets pages the tickets a view matches now, and follows a ticket that stops matching', async () => {
    for (const subject of ['Checkout fails', 'Refunds stuck']) {
      await fx.invoke('ticketing.create_ticket', { subject, description: 'Urgent.', priority: 'urgent' });
    }
    const urgent = [...account().tickets.values()].filter(
      (ticket) => ticket.priority === 'urgent' && !['solved', 'closed'].includes(ticket.status),
    );
    expect(urgent.length).toBeGreaterThan(0);
    const first = await fx.invoke('ticketing.list_view_tickets', { view_id: 25002, limit: 100 });
    expect(first.output.tickets.map((ticket) => ticket.id)).toEqual(
      urgent.map((ticket) => ticket.id).sort((a, b) => a - b),
    );
    const made = await fx.invoke('ticketing.create_ticket', {
      subject: 'Site down',
      description: 'Nothing loads.',
      priority: 'urgent',
    });
    const id = made.output.ticket.id;
    const paged = await fx.invoke('ticketing.list_view_tickets', { view_id: 25002, limit: 1 });
    expect(paged.output.tickets).toHaveLength(1);
    expect(paged.output.has_more).toBe(true);
    const withNew = await fx.invoke('ticketing.list_view_tickets', { view_id: 25002, limit: 100 });
    expect(withNew.output.tickets.map((ticket) => ticket.id)).toContain(id);
    await fx.invoke('ticketing.update_ticket', { ticket_id: id, status: 'solved' });
    const after = await fx.invoke('ticketing.list_view_tickets', { view_id: 25002, limit: 100 });
    expect(after.output.tickets.map((ticket) => ticket.id)).not.toContain(id);
    expect(sent()).toContain('GET /acme/api/v2/views/25002/tickets.json?page%5Bsize%5D=1');
    await expect(fx.invoke('ticketing.list_view_tickets', { view_id: 99, limit: 10 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('list_suspended_tickets pages the held emails with their cause; offered as suspended_ticket_id options', async () => {
    const first = await fx.invoke('ticketing.list_suspended_tickets', { limit: 2 });
    expect(first.output).toMatchObject({
      has_more: true,
      suspended_tickets: [
        { id: 8000001, cause: 'Automated response mail' },
        { id: 8000002, subject: 'WIN A PRIZE NOW', author: { email: 'promo@spam.example' } },
      ],
    });
    const rest = await fx.invoke('ticketing.list_suspended_tickets', {
      limit: 2,
      cursor: first.output.next_cursor!,
    });
    expect(rest.output).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.output.suspended_tickets.map((held) => held.id)).toEqual([8000003]);
    const choices = await fx.registry.options(
      fx.runtime,
      'ticketing.recover_suspended_ticket',
      'suspended_ticket_id',
      { connection: 'tickets-main' },
    );
    expect(choices.items[1]).toEqual({
      value: 8000002,
      label: 'WIN A PRIZE NOW',
      description: 'Detected as spam',
    });
  });

  it('recover_suspended_ticket makes a ticket with the caller as requester; a second recover is not_found', async () => {
    const before = account().tickets.size;
    const { output } = await fx.invoke('ticketing.recover_suspended_ticket', {
      suspended_ticket_id: 8000003,
    });
    expect(output.ticket).toMatchObject({ subject: 'Refund for order 1182', status: 'new', requester_id: 1 });
    expect(account().tickets.size).toBe(before + 1);
    expect(account().suspendedTickets.has(8000003)).toBe(false);
    expect(sent().at(-1)).toBe('PUT /acme/api/v2/suspended_tickets/8000003/recover.json');
    await expect(
      fx.invoke('ticketing.recover_suspended_ticket', { suspended_ticket_id: 8000003 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('recover_suspended_ticket is not replayed after a lost answer: outcome unknown, one ticket made', async () => {
    const before = account().tickets.size;
    await flipFault(fx.sandbox, resetOnce({ target: 'ticketing', method: 'PUT', pathIncludes: '/recover' }));
    const failed = await fx
      .invoke('ticketing.recover_suspended_ticket', { suspended_ticket_id: 8000001 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toMatchObject({ outcome: 'unknown', retryable: false });
    expect((failed as Error).message).toContain('List Suspended Tickets');
    expect(sent().filter((line) => line.includes('/recover'))).toHaveLength(1);
    expect(account().tickets.size).toBe(before + 1);
  });

  it('delete_suspended_ticket discards it; a replay after a lost answer is already_done', async () => {
    const { output } = await fx.invoke('ticketing.delete_suspended_ticket', { suspended_ticket_id: 8000002 });
    expect(output).toEqual({ deleted: true, suspended_ticket_id: 8000002, already_done: false });
    expect(account().suspendedTickets.has(8000002)).toBe(false);
    await flipFault(
      fx.sandbox,
      resetOnce({ target: 'ticketing', method: 'DELETE', pathIncludes: '/suspended_tickets/8000001' }),
    );
    const replayed = await fx.invoke('ticketing.delete_suspended_ticket', { suspended_ticket_id: 8000001 });
    expect(replayed.output).toEqual({ deleted: true, suspended_ticket_id: 8000001, already_done: true });
    await expect(
      fx.invoke('ticketing.delete_suspended_ticket', { suspended_ticket_id: 999 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('list_macros lists the active macros, by category; get_macro reads one; offered as macro_id options', async () => {
    const active = await fx.invoke('ticketing.list_macros', {});
    expect(active.output.macros.map((macro) => macro.title)).toEqual([
      'Billing::Refund issued',
      'Support::Escalate',
    ]);
    const all = await fx.invoke('ticketing.list_macros', { active_only: false, category: 'support' });
    expect(all.output.macros.map((macro) => macro.title)).toEqual([
      'Support::Escalate',
      'Support::Old greeting',
    ]);
    const one = await fx.invoke('ticketing.get_macro', { macro_id: 360111001 });
    expect(one.output.macro.actions).toContainEqual({ field: 'status', value: 'solved' });
    const choices = await fx.registry.options(fx.runtime, 'ticketing.get_macro', 'macro_id', {
      connection: 'tickets-main',
    });
    expect(choices.items.map((item) => item.value)).toEqual([360111001, 360111002]);
    expect(sent().slice(0, 2)).toEqual([
      'GET /acme/api/v2/macros.json?active=true&page=1&per_page=100',
      'GET /acme/api/v2/macros.json?page=1&per_page=100',
    ]);
  });

  it('show_macro_changes shows what a macro would do and saves nothing', async () => {
    const before = structuredClone(account().tickets.get(1));
    const { output } = await fx.invoke('ticketing.show_macro_changes', { ticket_id: 1, macro_id: 360111002 });
    expect(output).toEqual({
      ticket_id: 1,
      changes: { priority: 'urgent', group_id: 360003, assignee_id: 1 },
    });
    const reply = await fx.invoke('ticketing.show_macro_changes', { ticket_id: 1, macro_id: 360111001 });
    expect(reply.output.changes).toEqual({
      status: 'solved',
      comment: { body: 'Your refund is on its way.', public: true },
    });
    expect(account().tickets.get(1)).toEqual(before);
    await expect(
      fx.invoke('ticketing.show_macro_changes', { ticket_id: 1, macro_id: 42 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
