import { describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/** Create and Update Ticket's people fields, tag edits, and the collision guard (if_updated_at). */
describe('ticket requester, group, organization, due date, followers and CCs', () => {
  const fx = useFixture(ticketingFixture);
  const writes = () => fx.requests('ticketing').filter((entry) => entry.method !== 'GET');

  it('create_ticket sets requester, group, organization, due date, followers and CCs', async () => {
    const { output } = await fx.invoke('ticketing.create_ticket', {
      subject: 'Renew the licence',
      description: 'Before the end of the month.',
      type: 'task',
      requester_id: 3,
      group_id: 7,
      organization_id: 1,
      due_at: '2026-06-30T09:00:00Z',
      followers: [2],
      collaborators: [3],
    });
    expect(output.ticket).toMatchObject({
      requester_id: 3,
      group_id: 7,
      organization_id: 1,
      due_at: '2026-06-30T09:00:00.000Z',
      follower_ids: [2],
      collaborator_ids: [3],
    });
    expect(JSON.parse(writes()[0]?.rawBody ?? '')).toMatchObject({
      ticket: { requester_id: 3, group_id: 7, follower_ids: [2], collaborator_ids: [3] },
    });
  });

  it('create_ticket refuses a due date on a ticket that is not a task, sending nothing', async () => {
    await expect(
      fx.invokeUnchecked('ticketing.create_ticket', {
        subject: 'x',
        description: 'y',
        due_at: '2026-06-30T09:00:00Z',
      }),
    ).rejects.toMatchObject({ code: 'input_invalid', fields: [expect.objectContaining({ path: 'due_at' })] });
    expect(fx.requests('ticketing')).toEqual([]);
  });

  it('update_ticket adds and removes followers and CCs, moves group and requester, clears the due date', async () => {
    await fx.invoke('ticketing.update_ticket', {
      ticket_id: 1,
      add_followers: [1, 2],
      add_collaborators: [3],
    });
    const { output } = await fx.invoke('ticketing.update_ticket', {
      ticket_id: 1,
      remove_followers: [1],
      group_id: 4,
      requester_id: 2,
      due_at: null,
    });
    expect(output.ticket).toMatchObject({
      follower_ids: [2],
      collaborator_ids: [3],
      group_id: 4,
      requester_id: 2,
    });
    expect(JSON.parse(writes()[1]?.rawBody ?? '')).toEqual({
      ticket: { requester_id: 2, group_id: 4, due_at: null, followers: [{ user_id: '1', action: 'delete' }] },
    });
  });

  it('a follower who is not an agent is refused by the provider', async () => {
    await expect(
      fx.invoke('ticketing.update_ticket', { ticket_id: 1, add_followers: [3] }),
    ).rejects.toMatchObject({
      status: 422,
    });
  });
});

describe('update_ticket under a collision guard (if_updated_at)', () => {
  const fx = useFixture(ticketingFixture);
  const account = () => fx.sandbox.ticketing.account('acme');
  const writes = () => fx.requests('ticketing').filter((entry) => entry.method !== 'GET');

  it('lands when the ticket is unchanged: one safe update that carries the stamp, tags added and removed in it', async () => {
    const read = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 2 });
    fx.clock.advance(1000);
    const { output } = await fx.invoke('ticketing.update_ticket', {
      ticket_id: 2,
      status: 'open',
      add_tags: ['refund'],
      remove_tags: ['billing'],
      public_comment: 'Refund on its way.',
      if_updated_at: read.output.ticket.updated_at!,
    });
    expect(output.ticket).toMatchObject({ status: 'open', tags: ['refund'] });
    expect(writes()).toHaveLength(1);
    expect(JSON.parse(writes()[0]?.rawBody ?? '')).toMatchObject({
      ticket: { safe_update: true, updated_stamp: read.output.ticket.updated_at, tags: ['refund'] },
    });
  });

  it('is refused with a clear conflict, nothing sent, when the ticket changed since the stamp', async () => {
    const read = await fx.invoke('ticketing.get_ticket_info', { ticket_id: 2 });
    fx.clock.advance(1000);
    await fx.invoke('ticketing.update_ticket', { ticket_id: 2, priority: 'high' });
    const before = structuredClone(account().tickets.get(2));
    const writesBefore = writes().length;
    const error = await fx
      .invoke('ticketing.update_ticket', {
        ticket_id: 2,
        priority: 'low',
        internal_note: 'Lowering.',
        if_updated_at: read.output.ticket.updated_at!,
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'conflict',
      outcome: 'not_sent',
      fields: [{ path: 'if_updated_at' }],
    });
    expect((error as Error).message).toMatch(/Ticket 2 changed since .*nothing was changed/);
    expect(writes()).toHaveLength(writesBefore);
    expect(account().tickets.get(2)).toEqual(before);
  });

  it("is refused by the provider's safe update when the change lands between our read and our write", async () => {
    const ticket = account().tickets.get(2)!;
    const stamp = ticket.updated_at;
    // Someone edits the ticket between the step's read and its PUT: the provider sees the edit first.
    const emulator = fx.sandbox.ticketing;
    const handle = emulator.handle.bind(emulator);
    emulator.handle = (request) => {
      if (request.method === 'PUT') {
        ticket.priority = 'urgent';
        ticket.updated_at = new Date(Date.parse(stamp) + 1000).toISOString();
      }
      return handle(request);
    };
    const error = await fx
      .invoke('ticketing.update_ticket', { ticket_id: 2, priority: 'low', if_updated_at: stamp })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'conflict',
      status: 409,
      outcome: 'refused',
      providerCode: 'UpdateConflict',
    });
    expect(ticket.priority).toBe('urgent');
  });
});
