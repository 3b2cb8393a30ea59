import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHILD_START_MS,
  callText,
  connectStdio,
  errorOf,
  ticketingConnection,
  useMcpWorld,
} from './mcp-child.js';

describe('toolsteps mcp over stdio: catalogue mode and connection changes', () => {
  const world = useMcpWorld('toolsteps-mcp-catalogue');
  const clients: Client[] = [];

  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  it(
    'with --catalog, finds, describes, lists a field’s choices and runs a step through four tools',
    async () => {
      const { client } = await connectStdio(world, ['--catalog']);
      clients.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'search_steps',
        'describe_step',
        'list_options',
        'run_step',
      ]);

      const search = await callText(client, 'search_steps', { query: 'create ticket' });
      const found = (search.structuredContent as { steps: { id: string }[] }).steps;
      expect(found[0]?.id).toBe('ticketing.create_ticket');
      // Only offered steps: nothing of an integration without a connection.
      expect(found.every((step) => step.id.startsWith('ticketing.'))).toBe(true);

      const described = await callText(client, 'describe_step', { step: 'ticketing.create_ticket' });
      expect(described.structuredContent).toMatchObject({
        id: 'ticketing.create_ticket',
        access: 'write',
        idempotent: false,
        connections: [{ id: 'tickets-main', label: 'Acme support' }],
        input: { required: ['subject', 'description'] },
      });

      // Which fields have options, and list_options returns them: the account's agents and admins.
      expect((described.structuredContent as { options: Record<string, unknown> }).options).toMatchObject({
        assignee: { dependsOn: [], searchable: true, fixed: false },
      });
      const assignees = await callText(client, 'list_options', {
        step: 'ticketing.create_ticket',
        field: 'assignee',
        query: 'sam',
      });
      expect(assignees.structuredContent).toEqual({
        items: [{ value: 2, label: 'Sam Agent', description: 'sam@acme.example · agent' }],
        truncated: false,
      });
      // With a connection, describe_step names the account's custom fields as typed properties.
      const specialised = await callText(client, 'describe_step', {
        step: 'ticketing.create_ticket',
        connection: 'tickets-main',
      });
      const properties = (specialised.structuredContent as { input: { properties: Record<string, unknown> } })
        .input.properties;
      expect(properties.product_area).toMatchObject({
        anyOf: [{ enum: expect.arrayContaining(['mobile_app']) }, { type: 'null' }],
      });
      expect(properties.connection).toBeUndefined();
      const unknownField = await callText(client, 'list_options', {
        step: 'ticketing.create_ticket',
        field: 'subject',
      });
      expect(unknownField.isError).toBe(true);
      expect(errorOf(unknownField)).toMatchObject({ code: 'input_invalid' });

      const run = await callText(client, 'run_step', {
        step: 'ticketing.create_ticket',
        input: { subject: 'Via the catalogue', description: 'd' },
      });
      expect(run.isError).toBeFalsy();
      expect(run.structuredContent).toMatchObject({ output: { ticket: { subject: 'Via the catalogue' } } });

      const bad = await callText(client, 'run_step', {
        step: 'ticketing.create_ticket',
        input: { subject: 'No description' },
      });
      expect(bad.isError).toBe(true);
      expect(errorOf(bad)).toMatchObject({ code: 'input_invalid', sent: false });

      const unknown = await callText(client, 'describe_step', { step: 'ticketing.create_tiket' });
      expect(unknown.isError).toBe(true);
      expect(errorOf(unknown).message).toContain('ticketing.create_ticket');
    },
    CHILD_START_MS,
  );

  it(
    'tells the client when a connection is added, and then asks the agent to choose',
    async () => {
      const { client } = await connectStdio(world, ['--flat', '--watch-interval', '250']);
      clients.push(client);
      const before = await client.listTools();
      expect(
        before.tools.find((tool) => tool.name === 'ticketing__create_ticket')?.inputSchema.properties,
      ).not.toHaveProperty('connection');
      const changed = new Promise<void>((resolve) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
      });
      await world.store.put(ticketingConnection(world.sandbox, 'tickets-eu', 'Acme Europe'));
      await changed;

      const { tools } = await client.listTools();
      const create = tools.find((tool) => tool.name === 'ticketing__create_ticket');
      const properties = (create?.inputSchema.properties ?? {}) as Record<
        string,
        { enum: string[]; description: string }
      >;
      const choice = properties.connection;
      expect(choice?.enum).toEqual(['tickets-eu', 'tickets-main']);
      expect(choice?.description).toContain('Acme Europe');
      expect(create?.inputSchema.required).toContain('connection');

      const unchosen = await callText(client, 'ticketing__create_ticket', { subject: 's', description: 'd' });
      expect(unchosen.isError).toBe(true);
      expect(errorOf(unchosen)).toMatchObject({ code: 'input_invalid', fields: [{ path: 'connection' }] });

      const chosen = await callText(client, 'ticketing__create_ticket', {
        subject: 'In Europe',
        description: 'd',
        connection: 'tickets-eu',
      });
      expect(chosen.isError).toBeFalsy();
      expect(chosen.structuredContent).toMatchObject({ meta: { connection: 'tickets-eu' } });
      await world.store.remove('tickets-eu');
    },
    CHILD_START_MS,
  );

  it(
    'with --connection, pins one account and offers no choice',
    async () => {
      await world.store.put(ticketingConnection(world.sandbox, 'tickets-eu', 'Acme Europe'));
      const { client } = await connectStdio(world, ['--flat', '--connection', 'tickets-eu', '--read-only']);
      clients.push(client);
      const { tools } = await client.listTools();
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools.map((tool) => tool.name)).toContain('ticketing__list_tickets');
      const list = tools.find((tool) => tool.name === 'ticketing__list_tickets');
      expect(list?.inputSchema.properties).not.toHaveProperty('connection');
      const result = await callText(client, 'ticketing__list_tickets', {});
      expect(result.structuredContent).toMatchObject({ meta: { connection: 'tickets-eu' } });
    },
    CHILD_START_MS,
  );
});
