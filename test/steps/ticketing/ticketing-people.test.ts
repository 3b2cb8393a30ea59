import { describe, expect, it } from 'vitest';
import { flipFault, resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/** Users and organizations: the steps against the sandbox, and what crossed the wire. */
describe('ticketing users and organizations', () => {
  const fx = useFixture(ticketingFixture);
  const sent = () => fx.requests('ticketing').map((entry) => `${entry.method} ${entry.path}`);

  it('list_users pages with the provider cursor and narrows to a role', async () => {
    const first = await fx.invoke('ticketing.list_users', { limit: 2 });
    expect(first.output.users.map((user) => user.id)).toEqual([1, 2]);
    expect(first.output.has_more).toBe(true);
    const second = await fx.invoke('ticketing.list_users', { limit: 2, cursor: first.output.next_cursor! });
    // The seed holds dozens of people (the options' dropdowns need them): the next page goes on from 3.
    expect(second.output.users.map((user) => user.id)).toEqual([3, 4]);
    expect(second.output.has_more).toBe(true);
    const agents = await fx.invoke('ticketing.list_users', { role: 'agent' });
    expect(agents.output.users.map((user) => user.email)).toContain('sam@acme.example');
    expect(agents.output.users.every((user) => user.role === 'agent')).toBe(true);
    expect(sent().at(-1)).toContain('role=agent');
  });

  it('search_users finds by part of a name or an email term, and pages by offset', async () => {
    const byName = await fx.invoke('ticketing.search_users', { query: 'riley' });
    expect(byName.output).toMatchObject({ count: 1, has_more: false, users: [{ id: 3, role: 'end-user' }] });
    const byEmail = await fx.invoke('ticketing.search_users', { query: 'email:SAM@acme.example' });
    expect(byEmail.output.users.map((user) => user.id)).toEqual([2]);
    const paged = await fx.invoke('ticketing.search_users', { query: 'acme', limit: 1 });
    expect(paged.output).toMatchObject({ has_more: true, next_cursor: '2' });
    expect(paged.output.count).toBeGreaterThan(1);
    const next = await fx.invoke('ticketing.search_users', { query: 'acme', limit: 1, cursor: '2' });
    expect(next.output.users).toHaveLength(1);
    expect(next.output.users[0]?.id).not.toBe(paged.output.users[0]?.id);
    expect(sent().at(-1)).toMatch(/users\/search\.json\?query=acme&page=2&per_page=1$/);
  });

  it('search_users refuses no query and a cursor that is not a page, sending nothing', async () => {
    await expect(fx.invokeUnchecked('ticketing.search_users', {})).rejects.toMatchObject({
      code: 'input_invalid',
    });
    await expect(
      fx.invokeUnchecked('ticketing.search_users', { query: 'a', cursor: '../x' }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    expect(sent()).toEqual([]);
  });

  it('get_user and get_organization read one record; an unknown id is NotFoundError', async () => {
    const user = await fx.invoke('ticketing.get_user', { user_id: 3 });
    expect(user.output.user).toMatchObject({ name: 'Riley Requester', organization_id: 1 });
    expect(user.variables).toMatchObject({ email: 'riley@customer.example', role: 'end-user' });
    const org = await fx.invoke('ticketing.get_organization', { organization_id: 1 });
    expect(org.output.organization).toMatchObject({ name: 'Acme Pty Ltd', domain_names: ['acme.example'] });
    await expect(fx.invoke('ticketing.get_user', { user_id: 999 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('list_organizations pages', async () => {
    const { output } = await fx.invoke('ticketing.list_organizations', { limit: 2 });
    expect(output.organizations.map((organization) => organization.id)).toEqual([1, 2]);
    expect(output.has_more).toBe(true);
    const next = await fx.invoke('ticketing.list_organizations', { limit: 2, cursor: output.next_cursor! });
    expect(next.output.organizations[0]?.id).toBe(3);
  });

  it('create_user makes an end user by default, and a second create with the same email finds it instead', async () => {
    const input = { name: 'Jo Customer', email: 'jo@customer.example', organization_id: 1, tags: ['vip'] };
    const created = await fx.invoke('ticketing.create_user', input);
    expect(created.output).toMatchObject({ recovered: false, user: { role: 'end-user', tags: ['vip'] } });
    const again = await fx.invoke('ticketing.create_user', input);
    expect(again.output).toMatchObject({ recovered: true, user: { id: created.output.user.id } });
    expect(sent().filter((line) => line.startsWith('POST'))).toHaveLength(1);
  });

  it('create_user is reconciled by external_id after the answer to its POST is lost', async () => {
    const before = fx.sandbox.ticketing.account('acme').users.size;
    await flipFault(fx.sandbox, resetOnce({ target: 'ticketing', method: 'POST', pathIncludes: '/users' }));
    const { output } = await fx.invoke('ticketing.create_user', { name: 'Lee Lost', external_id: 'crm-77' });
    expect(output).toMatchObject({ recovered: true, user: { name: 'Lee Lost', external_id: 'crm-77' } });
    // One POST (its answer lost, never replayed), then the look by external_id that found it.
    expect(sent().filter((line) => line.startsWith('POST'))).toHaveLength(1);
    expect(fx.sandbox.ticketing.account('acme').users.size).toBe(before + 1);
  });

  it('update_user changes only the fields given, and refuses an email another user has', async () => {
    const { output } = await fx.invoke('ticketing.update_user', {
      user_id: 3,
      phone: '+61 2 5550 1234',
      role: 'agent',
    });
    expect(output.user).toMatchObject({ name: 'Riley Requester', phone: '+61 2 5550 1234', role: 'agent' });
    await expect(
      fx.invoke('ticketing.update_user', { user_id: 3, email: 'sam@acme.example' }),
    ).rejects.toMatchObject({ status: 422, fields: [{ path: 'email' }] });
    await expect(fx.invokeUnchecked('ticketing.update_user', { user_id: 3 })).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });
});
