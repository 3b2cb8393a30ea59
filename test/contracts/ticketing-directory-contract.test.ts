import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { contractFixture } from './support/contract-fixture.js';
import { expectConforming } from './support/provider-contracts.js';

const fx = useFixture(contractFixture, 'all');

/**
 * The steps of issue 42 against the ticketing provider's description: tags,
 * the signed-in user, user and organization writes, groups, ticket fields
 * and forms; what each sends and what the sandbox answers.
 */
describe('ticketing tags, people writes and the account directory against the provider description', () => {
  it('add_tags (PUT tags) and remove_tags (DELETE tags, then the set read)', async () => {
    const added = await fx.exchangesOf('ticketing.add_tags', { ticket_id: 1, tags: ['vip', 'urgent'] });
    const removed = await fx.exchangesOf('ticketing.remove_tags', { ticket_id: 1, tags: ['urgent'] });
    expect(removed.exchanges.map((exchange) => exchange.method)).toEqual(['DELETE', 'GET']);
    expect((removed.output as { tags: string[] }).tags).toContain('vip');
    expect((removed.output as { tags: string[] }).tags).not.toContain('urgent');
    expectConforming([...added.exchanges, ...removed.exchanges]);
  });

  it('get_current_user (with its organization), delete_user', async () => {
    const me = await fx.exchangesOf('ticketing.get_current_user', { with_organization: true });
    const deleted = await fx.exchangesOf('ticketing.delete_user', { user_id: 4 });
    expectConforming([...me.exchanges, ...deleted.exchanges]);
  });

  it('create_organization (the look by name, then the POST), update_organization, delete_organization', async () => {
    const created = await fx.exchangesOf('ticketing.create_organization', {
      name: 'Contract Co',
      domain_names: ['contract.example'],
      details: 'Level 1',
      tags: ['trial'],
    });
    expect(created.exchanges.map((exchange) => exchange.method)).toEqual(['GET', 'POST']);
    const id = (created.output as { organization: { id: number } }).organization.id;
    const updated = await fx.exchangesOf('ticketing.update_organization', {
      organization_id: id,
      notes: 'Signed in March.',
      group_id: null,
    });
    const deleted = await fx.exchangesOf('ticketing.delete_organization', { organization_id: id });
    expectConforming([...created.exchanges, ...updated.exchanges, ...deleted.exchanges]);
  });

  it('list_groups, get_group, list_ticket_fields, get_ticket_field, list_ticket_forms, get_ticket_form', async () => {
    const runs = [
      await fx.exchangesOf('ticketing.list_groups', { limit: 1 }),
      await fx.exchangesOf('ticketing.get_group', { group_id: 360001 }),
      await fx.exchangesOf('ticketing.list_ticket_fields', { limit: 2 }),
      await fx.exchangesOf('ticketing.get_ticket_field', { ticket_field_id: 900001 }),
      await fx.exchangesOf('ticketing.list_ticket_forms', {}),
      await fx.exchangesOf('ticketing.get_ticket_form', { ticket_form_id: 5001 }),
    ];
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('list_views (views/active), list_view_tickets', async () => {
    const views = await fx.exchangesOf('ticketing.list_views', {});
    const tickets = await fx.exchangesOf('ticketing.list_view_tickets', { view_id: 25001, limit: 2 });
    expect((tickets.output as { tickets: unknown[] }).tickets.length).toBeGreaterThan(0);
    expectConforming([...views.exchanges, ...tickets.exchanges]);
  });

  it('list_suspended_tickets, recover_suspended_ticket, delete_suspended_ticket', async () => {
    const listed = await fx.exchangesOf('ticketing.list_suspended_tickets', { limit: 2 });
    const recovered = await fx.exchangesOf('ticketing.recover_suspended_ticket', {
      suspended_ticket_id: 8000003,
    });
    const deleted = await fx.exchangesOf('ticketing.delete_suspended_ticket', {
      suspended_ticket_id: 8000002,
    });
    expect(recovered.exchanges.map((exchange) => exchange.method)).toEqual(['PUT']);
    expectConforming([...listed.exchanges, ...recovered.exchanges, ...deleted.exchanges]);
  });

  it('list_macros (all, and active only), get_macro, show_macro_changes', async () => {
    const runs = [
      await fx.exchangesOf('ticketing.list_macros', {}),
      await fx.exchangesOf('ticketing.list_macros', { active_only: false }),
      await fx.exchangesOf('ticketing.get_macro', { macro_id: 360111001 }),
      await fx.exchangesOf('ticketing.show_macro_changes', { ticket_id: 1, macro_id: 360111001 }),
    ];
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('search_macros: macros/search with the query and active; the category kept here', async () => {
    const found = await fx.exchangesOf('ticketing.search_macros', { query: 'refund' });
    const [sent] = found.exchanges;
    expect(sent?.path).toBe('/acme/api/v2/macros/search.json');
    expect(sent?.query.toString()).toBe('query=refund&active=true&page=1&per_page=100');
    expect((found.output as { macros: { title: string }[] }).macros.map((macro) => macro.title)).toEqual([
      'Billing::Refund issued',
    ]);
    const all = await fx.exchangesOf('ticketing.search_macros', {
      query: 'e',
      active_only: false,
      category: 'support',
    });
    expect((all.output as { macros: { title: string }[] }).macros.map((macro) => macro.title)).toEqual([
      'Support::Escalate',
      'Support::Old greeting',
    ]);
    expectConforming([...found.exchanges, ...all.exchanges]);
  });
});
