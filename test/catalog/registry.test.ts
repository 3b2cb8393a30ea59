import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/catalog/registry.js';
import { createRegistry } from '../../steps/index.js';
import createTicket from '../../steps/ticketing/create-ticket.js';
import deleteTicket from '../../steps/ticketing/delete-ticket.js';
import { ticketing } from '../../steps/ticketing/integration.js';

describe('registry', () => {
  it('refuses duplicate integrations and steps, and steps of unknown integrations', () => {
    const registry = new Registry();
    expect(() => registry.registerStep(createTicket)).toThrowError(/registered first/);
    registry.registerIntegration(ticketing);
    expect(() => registry.registerIntegration(ticketing)).toThrowError(/already registered/);
    registry.registerStep(createTicket);
    expect(() => registry.registerStep(createTicket)).toThrowError(/already registered/);
  });

  it('finds every ticketing step by the provider name', () => {
    const registry = createRegistry();
    // More ticketing steps than a default page of hits: ask for all of them.
    const ids = registry.search('zendesk', 100).map((hit) => hit.step.id);
    expect(ids).toEqual(expect.arrayContaining(registry.listSteps('ticketing').map((step) => step.id)));
  });

  it('ranks the step that matches every word first', () => {
    const registry = createRegistry();
    expect(registry.search('create ticket')[0]?.step.id).toBe('ticketing.create_ticket');
    // Delete Suspended Ticket matches both words as well (title and id); of the two, the shorter title says
    // less besides the query and leads, and a third word picks the other.
    expect(
      registry
        .search('delete ticket')
        .slice(0, 2)
        .map((hit) => hit.step.id),
    ).toEqual(['ticketing.delete_ticket', 'ticketing.delete_suspended_ticket']);
    expect(registry.search('delete suspended ticket')[0]?.step.id).toBe('ticketing.delete_suspended_ticket');
    expect(registry.search('search tickets')[0]?.step.id).toBe('ticketing.search_tickets');
    // The dedicated step outranks Update Ticket, which can also reply.
    expect(registry.search('zendesk comment reply')[0]?.step.id).toBe('ticketing.add_comment');
    expect(registry.search('xyzzy')).toEqual([]);
  });

  it('answers a search asked again as the first time, and a step registered since in it', () => {
    const registry = new Registry().registerIntegration(ticketing).registerStep(createTicket);
    const ids = () => registry.search('ticket').map((hit) => hit.step.id);
    const first = registry.search('ticket');
    first.pop();
    expect(ids()).toEqual(['ticketing.create_ticket']);
    registry.registerStep(deleteTicket);
    expect(ids().sort()).toEqual(['ticketing.create_ticket', 'ticketing.delete_ticket']);
    expect(registry.search('ticket', 1)).toHaveLength(1);
  });

  it('leaves out steps that share only the provider or a description word with the words a step names', () => {
    const ids = createRegistry()
      .search('create ticket')
      .map((hit) => hit.step.id);
    expect(ids[0]).toBe('ticketing.create_ticket');
    // Other integrations' Create steps and the ticketing steps that only say "ticket" are not results.
    for (const unrelated of [
      'deployments.create_deployment',
      'governance.create_project',
      'ticketing.get_organization',
      'ticketing.list_users',
      'ticketing.add_comment',
    ]) {
      expect(ids).not.toContain(unrelated);
    }
    // A query no step names keeps its broad answer: every ticketing step for the provider's name.
    expect(createRegistry().search('zendesk', 100).length).toBe(
      createRegistry().listSteps('ticketing').length,
    );
  });

  it('suggests close ids for an unknown step', () => {
    expect(() => createRegistry().requireStep('ticketing.create_tickets')).toThrowError(
      /Did you mean: ticketing.create_ticket/,
    );
  });
});
