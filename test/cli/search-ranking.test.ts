import { describe, expect, it } from 'vitest';
import { compareIds } from '../../src/catalog/search-ranking.js';
import { createRegistry } from '../../steps/index.js';
import { cli } from './cli-harness.js';

const ids = async (...words: string[]) =>
  (JSON.parse((await cli('search', ...words, '--json')).out) as { id: string }[]).map((hit) => hit.id);

describe('toolsteps search ranks by provider name and title before description', () => {
  it('search enrich person lists the person enrichment steps first, the raw API Call steps after every enrichment step', async () => {
    const found = await ids('enrich', 'person');
    expect(found.slice(0, 2)).toEqual(['anz_data.enrich_person', 'contact_data.enrich_contacts']);
    const lastEnrichment = Math.max(
      ...['anz_data.enrich_person', 'contact_data.enrich_contacts', 'contact_data.find_contact'].map((id) =>
        found.indexOf(id),
      ),
    );
    for (const apiCall of ['contact_data.api_call', 'anz_data.api_call']) {
      const at = found.indexOf(apiCall);
      expect(at === -1 || at > lastEnrichment, `${apiCall} at ${at}`).toBe(true);
    }
  });

  it("a provider's name finds its steps, and the title word picks the step", async () => {
    // "create" alone names several ticketing steps now (tickets, users, organizations): the object word picks one.
    expect((await ids('zendesk', 'create', 'ticket'))[0]).toBe('ticketing.create_ticket');
    expect((await ids('zendesk', 'create', 'organization'))[0]).toBe('ticketing.create_organization');
    expect((await ids('lusha', 'company'))[0]).toBe('contact_data.find_company');
    expect((await ids('cancel', 'deployment'))[0]).toBe('deployments.cancel_deployment');
  });
});

describe('ties in a search are ordered by id as localeCompare orders them', () => {
  it('compareIds agrees with localeCompare on every pair of catalogue ids and on the characters ids may hold', () => {
    const registry = createRegistry();
    const ids = [
      ...registry.listSteps().flatMap((step) => [step.id, ...(step.aliases ?? [])]),
      ...registry.listTriggers().map((trigger) => trigger.id),
      ...['a', 'a_b', 'a.b', 'a0b', 'aab', 'ab', 'a_', 'a.', 'a9', 'z_a.b', 'z.a_b', 'x1_2.y', 'x12.y'],
      ...['Ab', 'a-b', 'é', 'a b'],
    ];
    for (const a of ids) {
      for (const b of ids)
        expect(Math.sign(compareIds(a, b)), `${a} vs ${b}`).toBe(Math.sign(a.localeCompare(b)));
    }
  });
});
