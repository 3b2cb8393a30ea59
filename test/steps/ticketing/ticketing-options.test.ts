import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';

/**
 * The ticketing fields' choices, from the sandbox's seeded account (35
 * people: 4 admins, 10 agents, 21 end users; 6 organizations; 4 groups;
 * forms and custom fields of each type), through `registry.options`.
 */
let fx: TicketingFixture;
beforeAll(async () => {
  fx = await ticketingFixture();
});
afterAll(() => fx.close());

const options = (step: string, field: string, extra: Record<string, unknown> = {}) =>
  fx.registry.options(fx.runtime, step, field, { connection: 'tickets-main', ...extra });

describe('ticketing options', () => {
  it('assignee: the account’s agents and admins, no end user; a query narrows them', async () => {
    const all = await options('ticketing.create_ticket', 'assignee');
    expect(all.items).toHaveLength(14);
    expect(all.items.every((item) => /· (agent|admin)$/.test(item.description ?? ''))).toBe(true);
    expect(all.items[0]).toEqual({ value: 1, label: 'Ada Admin', description: 'ada@acme.example · admin' });
    const sam = await options('ticketing.create_ticket', 'assignee', { query: 'sam' });
    expect(sam.items.map((item) => item.label)).toEqual(['Sam Agent']);
    // Riley is an end user: found as a requester, never offered as an assignee.
    expect((await options('ticketing.update_ticket', 'assignee', { query: 'riley' })).items).toEqual([]);
  });

  it('assignee pages by the provider’s cursor when the account has more than a page', async () => {
    const account = fx.sandbox.ticketing.account('acme');
    for (let index = 0; index < 110; index += 1) {
      account.addUser({ name: `Extra Agent ${index}`, email: `extra${index}@acme.example`, role: 'agent' });
    }
    const first = await options('ticketing.create_ticket', 'assignee', {
      query: undefined,
      cursor: undefined,
    });
    expect(first.items).toHaveLength(14); // kept from the first call above, for the TTL
    fx.runtime.answers.clear();
    const fresh = await options('ticketing.create_ticket', 'assignee');
    expect(fresh.items).toHaveLength(100);
    expect(fresh.next_cursor).toBeTruthy();
    const rest = await options('ticketing.create_ticket', 'assignee', { cursor: fresh.next_cursor });
    expect(rest.items).toHaveLength(24);
    expect(rest.next_cursor).toBeUndefined();
  });

  it('tags: the account’s tags, most used first', async () => {
    const tags = await options('ticketing.create_ticket', 'tags');
    expect(tags.items.map((item) => item.value)).toEqual(
      expect.arrayContaining(['billing', 'feature', 'login']),
    );
    expect((await options('ticketing.update_ticket', 'add_tags', { query: 'bill' })).items).toEqual([
      { value: 'billing', label: 'billing', description: '1 tickets' },
    ]);
  });

  it('macro category for List Macros and Search Macros: the categories the account’s macros name', async () => {
    for (const step of ['ticketing.list_macros', 'ticketing.search_macros']) {
      const categories = await options(step, 'category');
      expect(categories.items).toEqual([
        { value: 'Billing', label: 'Billing' },
        { value: 'Support', label: 'Support' },
      ]);
    }
    const narrowed = await options('ticketing.search_macros', 'category', { query: 'bil' });
    expect(narrowed.items.map((item) => item.value)).toEqual(['Billing']);
  });

  it('ticket form: the active forms', async () => {
    const forms = await options('ticketing.create_ticket', 'ticket_form_id');
    expect(forms.items.map((item) => item.label)).toEqual([
      'Default ticket form',
      'Technical support',
      'Billing request',
    ]);
  });

  it('ticket for get, update and delete: recent tickets, most recently updated first; searchable', async () => {
    for (const step of ['ticketing.get_ticket_info', 'ticketing.update_ticket', 'ticketing.delete_ticket']) {
      const recent = await options(step, 'ticket_id');
      expect(recent.items.length).toBeGreaterThanOrEqual(3);
      expect(recent.items[0]).toMatchObject({
        value: expect.any(Number),
        label: expect.stringMatching(/^#\d+ /),
      });
    }
    const found = await options('ticketing.get_ticket_info', 'ticket_id', { query: 'invoice' });
    expect(found.items).toEqual([
      { value: 2, label: '#2 Invoice shows the wrong amount', description: 'pending' },
    ]);
  });

  it('custom field values: a dropdown’s choices by the field’s property name', async () => {
    const area = await options('ticketing.create_ticket', 'product_area');
    expect(area.items.map((item) => item.value)).toEqual([
      'billing_portal',
      'mobile_app',
      'public_api',
      'web_dashboard',
    ]);
    const platforms = await options('ticketing.update_ticket', 'affected_platforms', { query: 'os' });
    expect(platforms.items.map((item) => item.label)).toEqual(['iOS', 'macOS']);
  });
});

/** Requester, group, organization and the people fields, on the steps that take them. */
describe('requester, group, organization and people fields', () => {
  const ask = (field: string, query?: string, step = 'ticketing.create_ticket') =>
    options(step, field, query === undefined ? {} : { query });

  it('requester: anyone, end users included, searched by name', async () => {
    expect((await ask('requester_id', 'riley')).items).toEqual([
      { value: 3, label: 'Riley Requester', description: 'riley@customer.example · end-user' },
    ]);
    expect((await ask('requester_id', 'riley', 'ticketing.update_ticket')).items).toHaveLength(1);
    expect((await ask('requester_id')).items.length).toBe(100);
  });

  it('group: the four groups, filtered by name', async () => {
    expect((await ask('group_id')).items.map((item) => item.label)).toEqual([
      'Support',
      'Billing',
      'Escalations',
      'Onboarding',
    ]);
    expect((await ask('group_id', 'esc', 'ticketing.update_ticket')).items).toEqual([
      { value: 360_003, label: 'Escalations', description: 'Escalations team' },
    ]);
  });

  it('organization: all six, or those whose name starts with the query', async () => {
    expect((await ask('organization_id')).items).toHaveLength(6);
    expect((await ask('organization_id', 'ini', 'ticketing.update_ticket')).items).toEqual([
      { value: 3, label: 'Initech' },
    ]);
    expect((await ask('organization_id', 'ini', 'ticketing.get_organization')).items).toHaveLength(1);
  });

  it('followers are agents, CCs anyone; user, author and comment ticket fields offer the same lists', async () => {
    expect((await ask('followers', 'riley')).items).toEqual([]);
    expect((await ask('add_collaborators', 'riley', 'ticketing.update_ticket')).items).toHaveLength(1);
    expect((await ask('remove_followers', 'sam', 'ticketing.update_ticket')).items[0]?.label).toBe(
      'Sam Agent',
    );
    expect((await ask('user_id', 'riley', 'ticketing.get_user')).items[0]?.value).toBe(3);
    expect((await ask('author_id', 'riley', 'ticketing.add_comment')).items[0]?.value).toBe(3);
    expect((await ask('ticket_id', 'invoice', 'ticketing.list_comments')).items[0]?.value).toBe(2);
  });
});
