import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../cli/catalog.js';
import { SANDBOX_TICKETING_ACCOUNT } from '../../cli/sandbox-connect-settings.js';
import { type BuilderWorld, connectTicketing, openBuilderWorld, storesOf } from './builder-fixture.js';

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld();
  await connectTicketing(world, 'desk');
});
afterAll(() => world.close());

const ticketRequests = () =>
  world.sandbox.server.requestLog.filter(
    (entry) => entry.mount === 'ticketing' && entry.path.includes('/tickets'),
  );

describe('the catalogue through the builder API', () => {
  it('search ranks like `toolsteps search` and shows integration, title, access and cost', async () => {
    const answer = await world.json('/v1/steps?q=zendesk%20create%20ticket&limit=5');
    expect(answer.status).toBe(200);
    const expected = Catalog.read().search('zendesk create ticket').slice(0, 5);
    expect(answer.body.hits.map((hit: { id: string }) => hit.id)).toEqual(expected.map((hit) => hit.step.id));
    expect(answer.body.hits[0]).toMatchObject({
      id: 'ticketing.create_ticket',
      title: 'Create Ticket',
      integration: 'ticketing',
      integrationTitle: 'Ticketing (Zendesk)',
      access: 'write',
      cost: null,
    });
    const paid = await world.json('/v1/steps?q=enrich%20person');
    expect(paid.body.hits.some((hit: { cost: string | null }) => hit.cost !== null)).toBe(true);
  });

  it('every API answer, a refusal too, carries the server’s own time in Server-Timing (app;dur in ms)', async () => {
    const found = await world.api('/v1/steps?q=ticket');
    const refused = await world.api('/v1/steps/nope.nothing');
    for (const answer of [found, refused]) {
      const timing = answer.headers.get('server-timing') ?? '';
      expect(timing).toMatch(/^app;dur=\d+\.\d{2}$/);
      expect(Number(timing.split('=')[1])).toBeGreaterThanOrEqual(0);
    }
    expect(refused.status).not.toBe(200);
  });

  it('describe answers the JSON Schemas and default variables; a connection of another tenant is not found', async () => {
    const generic = await world.json('/v1/steps/ticketing.create_ticket');
    expect(generic.body).toMatchObject({
      id: 'ticketing.create_ticket',
      connection: null,
      variables: { ticket_id: '$.ticket.id' },
      input: { type: 'object', required: expect.arrayContaining(['subject', 'description']) },
    });
    const own = await world.json('/v1/steps/ticketing.create_ticket?connection=desk');
    expect(own.status).toBe(200);
    const stranger = world.token('globex');
    const theirs = await world.json('/v1/steps/ticketing.create_ticket?connection=desk', { token: stranger });
    const nobodys = await world.json('/v1/steps/ticketing.create_ticket?connection=nobody', {
      token: stranger,
    });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'not_found']);
    expect(nobodys.body.error).toEqual({
      ...theirs.body.error,
      message: theirs.body.error.message.replace('desk', 'nobody'),
    });
    const unknown = await world.json('/v1/steps/ticketing.create_tiket');
    expect(unknown.body.error).toMatchObject({
      code: 'input_invalid',
      message: expect.stringContaining('ticketing.create_ticket'),
    });
  });

  it('field options answer the account’s choices (registry.options), and nothing of another tenant', async () => {
    const answer = await world.json('/v1/steps/ticketing.create_ticket/options', {
      body: { field: 'assignee', connection: 'desk', query: 'sam' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      options: [{ value: 2, label: 'Sam Agent', description: 'sam@acme.example · agent' }],
      nextCursor: null,
      truncated: false,
    });
    const theirs = await world.json('/v1/steps/ticketing.create_ticket/options', {
      token: world.token('globex'),
      body: { field: 'assignee', connection: 'desk' },
    });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'not_found']);
  });

  it('integrations say how each is connected and which fields a person fills in', async () => {
    const answer = await world.json('/v1/integrations');
    const byId = Object.fromEntries(answer.body.integrations.map((item: { id: string }) => [item.id, item]));
    expect(byId.ticketing).toMatchObject({ connect: 'redirect', fields: { type: 'object' } });
    expect(Object.keys(byId.ticketing.fields.properties ?? {})).toEqual([]);
    expect(byId.deployments.connect).toBe('popup');
    expect([byId.anz_data.connect, byId.contact_data.connect]).toEqual(['api_key', 'api_key']);
    expect(byId.governance.connect).toBeNull();
  });
});

describe('test runs of a draft configuration', () => {
  it('a write step without confirmWrite is refused and sends nothing', async () => {
    const before = ticketRequests().length;
    const answer = await world.json('/v1/steps/ticketing.create_ticket/test', {
      body: { connection: 'desk', input: { subject: 'x', description: 'y' } },
    });
    expect([answer.status, answer.body.error.code]).toEqual([400, 'confirmation_required']);
    expect(ticketRequests().length).toBe(before);
  });

  it('fills {{variables}} from samples, runs once, and maps the output with the draft mapping', async () => {
    const created = await world.json('/v1/steps/ticketing.create_ticket/test', {
      body: {
        connection: 'desk',
        input: { subject: 'Printer for {{customer}}', description: '{{problem}}', priority: '{{priority}}' },
        samples: { customer: 'Acme', problem: 'It is on fire.', priority: 'urgent' },
        mapping: { new_subject: '$.ticket.subject' },
        confirmWrite: true,
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      test: true,
      input: { subject: 'Printer for Acme', description: 'It is on fire.', priority: 'urgent' },
      variables: { ticket_id: expect.anything(), new_subject: 'Printer for Acme' },
      meta: { step: 'ticketing.create_ticket', connection: 'desk', attempts: 1 },
    });
    const read = await world.json('/v1/steps/ticketing.get_ticket_info/test', {
      body: {
        connection: 'desk',
        input: { ticket_id: '{{id}}' },
        samples: { id: created.body.variables.ticket_id },
      },
    });
    expect(read.body.output.ticket.subject).toBe('Printer for Acme');
  });

  it('a placeholder without a sample is refused with the field, before anything is sent', async () => {
    const before = ticketRequests().length;
    const answer = await world.json('/v1/steps/ticketing.get_ticket_info/test', {
      body: { connection: 'desk', input: { ticket_id: '{{id}}' } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.fields).toEqual([{ path: 'ticket_id', message: 'no sample value for {{id}}' }]);
    expect(ticketRequests().length).toBe(before);
  });

  it('another tenant cannot run with this tenant’s connection', async () => {
    const answer = await world.json('/v1/steps/ticketing.get_ticket_info/test', {
      token: world.token('globex'),
      body: { connection: 'desk', input: { ticket_id: 1 } },
    });
    expect([answer.status, answer.body.error.code]).toEqual([404, 'not_found']);
  });

  // Last in this file: it revokes the sandbox account every test here signs in as.
  it('the account’s sign-in refused by its provider is a 502 that names the account, never the session’s 401', async () => {
    world.sandbox.ticketing.oauth.revokeAccount(SANDBOX_TICKETING_ACCOUNT);
    const answer = await world.api('/v1/steps/ticketing.get_ticket_info/test', {
      method: 'POST',
      body: { connection: 'desk', input: { ticket_id: 1 } },
    });
    const body = await answer.json();
    expect(answer.status).toBe(502);
    expect(answer.headers.get('www-authenticate')).toBeNull();
    expect(['auth_failed', 'reauthorization_required']).toContain(body.error.code);
    const stored = await storesOf(world).connections.get('desk');
    for (const secret of Object.values(stored!.secrets)) expect(JSON.stringify(body)).not.toContain(secret);
  });
});
