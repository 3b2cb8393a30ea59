import { describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

describe('ticketing steps against the sandbox', () => {
  const fx = useFixture(ticketingFixture);

  it('creates, reads, updates, searches, lists and deletes a ticket', async () => {
    const created = await fx.invoke('ticketing.create_ticket', {
      subject: 'Printer on fire',
      description: 'Smoke is coming out of the printer on level 3.',
      priority: 'urgent',
      type: 'incident',
      assignee: 'sam@acme.example',
      tags: ['hardware'],
    });
    const ticketId = created.variables.ticket_id as number;
    expect(ticketId).toBeGreaterThan(3);
    expect(created.variables.status).toBe('open');

    const info = await fx.invoke('ticketing.get_ticket_info', { ticket_id: ticketId });
    expect(info.variables).toMatchObject({ priority: 'urgent', assignee_email: 'sam@acme.example' });
    expect(info.variables.comments).toEqual(['Smoke is coming out of the printer on level 3.']);

    const updated = await fx.invoke('ticketing.update_ticket', {
      ticket_id: ticketId,
      status: 'pending',
      add_tags: ['fire'],
      public_comment: 'We are on our way.',
      internal_note: 'Call facilities.',
    });
    expect(updated.variables.tags).toEqual(['hardware', 'fire']);
    const after = await fx.invoke('ticketing.get_ticket_info', {
      ticket_id: ticketId,
    });
    expect(after.output.comments.map((comment) => comment.public)).toEqual([true, true, false]);

    const search = await fx.invoke('ticketing.search_tickets', {
      query: 'status:pending tags:fire "on fire"',
    });
    expect(search.variables.ticket_ids).toEqual([ticketId]);

    const list = await fx.invoke('ticketing.list_tickets', { status: 'pending', limit: 10 });
    expect(list.variables.ticket_ids).toContain(ticketId);

    const deleted = await fx.invoke('ticketing.delete_ticket', { ticket_id: ticketId });
    expect(deleted.output).toEqual({ deleted: true, ticket_id: ticketId, already_done: false });
    await expect(fx.invoke('ticketing.get_ticket_info', { ticket_id: ticketId })).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });
});
