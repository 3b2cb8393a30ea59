import { describe, expect, it } from 'vitest';
import { flipFault, resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/**
 * The steps of issue 42 against the sandbox: tags on their own, the
 * signed-in user, user and organization writes, groups, ticket fields and
 * forms; what each did to the account and what crossed the wire.
 */
describe('ticketing tags, people writes and the account directory', () => {
  const fx = useFixture(ticketingFixture);
  const sent = () => fx.requests('ticketing').map((entry) => `${entry.method} ${entry.path}`);
  const account = () => fx.sandbox.ticketing.account('acme');

  it('add_tags keeps the tags the ticket has; remove_tags takes out only the named ones', async () => {
    const before = [...(account().tickets.get(1)?.tags ?? [])];
    const added = await fx.invoke('ticketing.add_tags', { ticket_id: 1, tags: ['vip', 'Escalated'] });
    expect(added.output.tags).toEqual([...before, 'vip', 'escalated']);
    const again = await fx.invoke('ticketing.add_tags', { ticket_id: 1, tags: ['vip'] });
    expect(again.output.tags).toEqual(added.output.tags);
    const removed = await fx.invoke('ticketing.remove_tags', { ticket_id: 1, tags: ['vip', 'never-there'] });
    expect(removed.output.tags).toEqual([...before, 'escalated']);
    expect(sent().slice(-2)).toEqual([
      'DELETE /acme/api/v2/tickets/1/tags.json',
      'GET /acme/api/v2/tickets/1/tags.json',
    ]);
  });

  it('add_tags refuses no tags and a tag with a space, sending nothing', async () => {
    for (const tags of [[], ['two words']]) {
      await expect(fx.invokeUnchecked('ticketing.add_tags', { ticket_id: 1, tags })).rejects.toMatchObject({
        code: 'input_invalid',
      });
    }
    expect(sent()).toEqual([]);
  });

  it('get_current_user is the connection’s own user, with their organization when asked', async () => {
    account().users.get(1)!.organization_id = 1;
    const plain = await fx.invoke('ticketing.get_current_user', {});
    expect(plain.output).toEqual({ user: expect.objectContaining({ id: 1, role: 'admin' }) });
    const withOrg = await fx.invoke('ticketing.get_current_user', { with_organization: true });
    expect(withOrg.output.organization).toMatchObject({ id: 1, name: 'Acme Pty Ltd' });
    expect(sent()).toEqual([
      'GET /acme/api/v2/users/me.json',
      'GET /acme/api/v2/users/me.json',
      'GET /acme/api/v2/organizations/1.json',
    ]);
  });

  it('delete_user removes the user; a replay after a lost answer is already_done', async () => {
    const { output } = await fx.invoke('ticketing.delete_user', { user_id: 4 });
    expect(output).toEqual({ deleted: true, user_id: 4, already_done: false });
    expect(account().users.has(4)).toBe(false);
    await flipFault(
      fx.sandbox,
      resetOnce({ target: 'ticketing', method: 'DELETE', pathIncludes: '/users/5' }),
    );
    const replayed = await fx.invoke('ticketing.delete_user', { user_id: 5 });
    expect(replayed.output).toEqual({ deleted: true, user_id: 5, already_done: true });
    await expect(fx.invoke('ticketing.delete_user', { user_id: 999 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('create_organization makes one per name: found again (recovered) rather than duplicated, also after a lost answer', async () => {
    const made = await fx.invoke('ticketing.create_organization', {
      name: 'Globex',
      domain_names: ['globex.example'],
    });
    expect(made.output).toMatchObject({
      recovered: false,
      organization: { name: 'Globex', domain_names: ['globex.example'] },
    });
    const again = await fx.invoke('ticketing.create_organization', { name: 'GLOBEX' });
    expect(again.output).toMatchObject({
      recovered: true,
      organization: { id: made.output.organization.id },
    });
    const before = account().organizations.size;
    await flipFault(
      fx.sandbox,
      resetOnce({ target: 'ticketing', method: 'POST', pathIncludes: '/organizations' }),
    );
    const lost = await fx.invoke('ticketing.create_organization', { name: 'Hooli' });
    expect(lost.output).toMatchObject({ recovered: true, organization: { name: 'Hooli' } });
    expect(account().organizations.size).toBe(before + 1);
  });

  it('update_organization changes only what is given; delete_organization takes it off its users', async () => {
    const made = await fx.invoke('ticketing.create_organization', {
      name: 'Umbrella Corp',
      details: 'Raccoon City',
    });
    const id = made.output.organization.id;
    const updated = await fx.invoke('ticketing.update_organization', {
      organization_id: id,
      notes: 'Careful.',
      group_id: 360002,
    });
    expect(updated.output.organization).toMatchObject({
      details: 'Raccoon City',
      notes: 'Careful.',
      group_id: 360002,
    });
    await expect(
      fx.invokeUnchecked('ticketing.update_organization', { organization_id: id }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    await expect(
      fx.invoke('ticketing.update_organization', { organization_id: id, name: 'Acme Pty Ltd' }),
    ).rejects.toMatchObject({ status: 422 });
    account().addUser({
      name: 'Umbrella Staff',
      email: 'staff@umbrella.example',
      role: 'end-user',
    }).organization_id = id;
    await fx.invoke('ticketing.delete_organization', { organization_id: id });
    expect(account().organizations.has(id)).toBe(false);
    expect([...account().users.values()].some((user) => user.organization_id === id)).toBe(false);
  });

  it('groups, ticket fields and forms: listed, read one by one, offered as options', async () => {
    const groups = await fx.invoke('ticketing.list_groups', { limit: 2 });
    expect(groups.output).toMatchObject({
      has_more: true,
      groups: [{ id: 360001, name: 'Support' }, { id: 360002 }],
    });
    const next = await fx.invoke('ticketing.list_groups', { limit: 2, cursor: groups.output.next_cursor! });
    expect(next.output.groups[0]?.id).toBe(360003);
    expect((await fx.invoke('ticketing.get_group', { group_id: 360001 })).output.group.default).toBe(true);
    const fields = await fx.invoke('ticketing.list_ticket_fields', { limit: 100 });
    expect(fields.output.ticket_fields.map((field) => field.type)).toEqual(
      expect.arrayContaining(['subject', 'tagger']),
    );
    const dropdown = fields.output.ticket_fields.find((field) => field.type === 'tagger')!;
    const one = await fx.invoke('ticketing.get_ticket_field', { ticket_field_id: dropdown.id });
    expect(one.output.ticket_field.custom_field_options?.length).toBeGreaterThan(0);
    const forms = await fx.invoke('ticketing.list_ticket_forms', {});
    const form = await fx.invoke('ticketing.get_ticket_form', {
      ticket_form_id: forms.output.ticket_forms[0]!.id,
    });
    expect(form.output.ticket_form.ticket_field_ids).toContain(900001);
    const choices = await fx.registry.options(fx.runtime, 'ticketing.get_ticket_field', 'ticket_field_id', {
      connection: 'tickets-main',
    });
    expect(choices.items[0]).toEqual({ value: 900001, label: 'Subject', description: 'subject' });
    await expect(fx.invoke('ticketing.get_group', { group_id: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
