import { describe, expect, it } from 'vitest';
import { addSandboxTicketing, cli, jsonError, useCliWorld } from './cli-harness.js';

/** `toolsteps options` and `describe --connection` against the sandbox's seeded ticketing account. */
const world = useCliWorld('toolsteps-cli-options-', { env: ['TS_OPTIONS_TOKEN'] });

/** `toolsteps options ticketing.create_ticket <field>` with the seeded account's connection, and `flags`. */
const ticketOptions = (field: string, ...flags: string[]) =>
  cli('options', 'ticketing.create_ticket', field, '--connection', 'desk', ...flags);

describe('toolsteps options', () => {
  it('lists the sandbox account’s agents and admins for the assignee, and --query narrows them', async () => {
    expect((await addSandboxTicketing(world.sandbox, 'desk', 'TS_OPTIONS_TOKEN')).code).toBe(0);
    const all = await ticketOptions('assignee', '--json');
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.out) as { items: { value: number; label: string; description: string }[] };
    expect(listed.items).toHaveLength(14);
    expect(listed.items.map((item) => item.label)).toEqual(
      expect.arrayContaining(['Ada Admin', 'Sam Agent']),
    );
    expect(listed.items.every((item) => /· (agent|admin)$/.test(item.description))).toBe(true);
    expect(listed.items.map((item) => item.label)).not.toContain('Riley Requester');

    const narrowed = await ticketOptions('assignee', '--query', 'sam', '--json');
    expect(JSON.parse(narrowed.out)).toEqual({
      items: [{ value: 2, label: 'Sam Agent', description: 'sam@acme.example · agent' }],
      truncated: false,
    });
  });

  it('prints one choice a line for people, and a closed list needs no connection', async () => {
    const human = await ticketOptions('assignee', '--query', 'ada');
    expect(human.out).toBe('1\tAda Admin\t(ada@acme.example · admin)\n');
    const seniority = await cli('options', 'anz_data.search_people', 'seniority', '--json');
    expect(seniority.code).toBe(0);
    expect(JSON.parse(seniority.out).items.map((item: { value: string }) => item.value)).toContain('c_suite');
    const industry = await cli('options', 'contact_data.search_contacts', 'industry', '--query', 'soft');
    expect(industry.out).toBe('Software\tSoftware\n');
  });

  it('a field without options is refused, naming the fields that have them', async () => {
    const refused = await ticketOptions('subject', '--json');
    expect(refused.code).toBe(2);
    expect(jsonError(refused).message).toMatch(/Fields with options: assignee, tags, ticket_form_id/);
  });
});

describe('toolsteps describe --connection', () => {
  it('offers the account’s custom fields as named, typed properties; without it, the generic schema', async () => {
    const specialised = await cli('describe', 'ticketing.create_ticket', '--connection', 'desk', '--json');
    expect(specialised.code).toBe(0);
    const properties = JSON.parse(specialised.out).input.properties;
    expect(properties.product_area.anyOf[0].enum).toEqual([
      'billing_portal',
      'mobile_app',
      'public_api',
      'web_dashboard',
    ]);
    expect(properties.assignee['x-toolsteps-options']).toMatchObject({ searchable: true });
    const generic = JSON.parse((await cli('describe', 'ticketing.create_ticket', '--json')).out).input
      .properties;
    expect(generic.product_area).toBeUndefined();
    expect(generic.assignee['x-toolsteps-options']).toMatchObject({ searchable: true });
    const human = await cli('describe', 'ticketing.create_ticket');
    expect(human.out).toContain('  assignee (');
    expect(human.out).toMatch(/assignee \([^)]*, optional, has options\)/);
  });
});
