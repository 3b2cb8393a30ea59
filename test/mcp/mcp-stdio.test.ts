import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_START_MS, callText, connectStdio, errorOf, useMcpWorld } from './mcp-child.js';

describe('toolsteps mcp --flat over stdio, driven by the official MCP client', () => {
  const world = useMcpWorld('toolsteps-mcp-stdio');
  let client: Client;
  let stderr: () => string;
  const seen: string[] = [];

  beforeAll(async () => {
    ({ client, stderr } = await connectStdio(world, ['--flat']));
  }, CHILD_START_MS);

  afterAll(async () => {
    await client?.close();
  });

  it('lists one tool per ticketing step, and list_options, with valid names, non-empty schemas and honest annotations', async () => {
    const { tools } = await client.listTools();
    seen.push(JSON.stringify(tools));
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      'list_options',
      'ticketing__add_comment',
      'ticketing__add_tags',
      'ticketing__api_call',
      'ticketing__create_organization',
      'ticketing__create_ticket',
      'ticketing__create_user',
      'ticketing__delete_organization',
      'ticketing__delete_suspended_ticket',
      'ticketing__delete_ticket',
      'ticketing__delete_user',
      'ticketing__get_current_user',
      'ticketing__get_group',
      'ticketing__get_macro',
      'ticketing__get_organization',
      'ticketing__get_ticket_field',
      'ticketing__get_ticket_form',
      'ticketing__get_ticket_info',
      'ticketing__get_user',
      'ticketing__list_comments',
      'ticketing__list_groups',
      'ticketing__list_macros',
      'ticketing__list_organizations',
      'ticketing__list_suspended_tickets',
      'ticketing__list_ticket_fields',
      'ticketing__list_ticket_forms',
      'ticketing__list_tickets',
      'ticketing__list_users',
      'ticketing__list_view_tickets',
      'ticketing__list_views',
      'ticketing__recover_suspended_ticket',
      'ticketing__remove_tags',
      'ticketing__search_macros',
      'ticketing__search_tickets',
      'ticketing__search_users',
      'ticketing__show_macro_changes',
      'ticketing__update_organization',
      'ticketing__update_ticket',
      'ticketing__update_user',
      'ticketing__upload_attachment',
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
      if (tool.name !== 'list_options')
        expect(tool.outputSchema?.required).toEqual(['output', 'variables', 'meta']);
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations?.openWorldHint).toBe(true);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('ticketing__get_ticket_info')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('ticketing__create_ticket')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('ticketing__delete_ticket')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    // One connection: the agent is not asked to choose.
    expect(byName.get('ticketing__create_ticket')?.inputSchema.properties).not.toHaveProperty('connection');
  });

  it('marks the fields whose choices come from options, and list_options answers them by step id or tool name', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((tool) => tool.name === 'ticketing__create_ticket');
    const properties = (create?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(properties.assignee).toMatchObject({
      'x-toolsteps-options': { dependsOn: [], searchable: true, fixed: false },
      description: expect.stringContaining(
        'Choices: call list_options with step "ticketing.create_ticket" and field "assignee".',
      ),
    });
    // A field without options carries no mark.
    expect(properties.subject).not.toHaveProperty('x-toolsteps-options');
    const listTool = tools.find((tool) => tool.name === 'list_options');
    expect(listTool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(listTool?.description).toContain('x-toolsteps-options');

    const sam = [{ value: 2, label: 'Sam Agent', description: 'sam@acme.example · agent' }];
    for (const step of ['ticketing.create_ticket', 'ticketing__create_ticket']) {
      const { result } = await call('list_options', { step, field: 'assignee', query: 'sam' });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ items: sam, truncated: false });
    }
    const { result: noChoices } = await call('list_options', {
      step: 'ticketing.create_ticket',
      field: 'subject',
    });
    expect(noChoices.isError).toBe(true);
    expect(errorOf(noChoices)).toMatchObject({ code: 'input_invalid' });
  });

  /** Calls `tool` as the client, keeping its answer for the secret check; `sent` is what reached the sandbox since. */
  async function call(tool: string, args: Record<string, unknown>) {
    const before = world.sandbox.server.requestLog.length;
    const result = await callText(client, tool, args);
    seen.push(JSON.stringify(result));
    return { result, sent: () => world.sandbox.server.requestLog.slice(before) };
  }

  /** Calls create_ticket with input it must refuse: the InputError, naming `field`, with nothing sent. */
  async function refusedCreate(input: Record<string, unknown>, field: string) {
    const { result, sent } = await call('ticketing__create_ticket', input);
    expect(result.isError).toBe(true);
    const error = errorOf(result);
    expect(error).toMatchObject({ code: 'input_invalid', sent: false });
    expect((error.fields as { path: string }[]).map((entry) => entry.path)).toContain(field);
    expect(sent()).toEqual([]);
    return error;
  }

  it('creates a ticket on the sandbox and answers {output, variables, meta} with a text rendering', async () => {
    const { result, sent } = await call('ticketing__create_ticket', {
      subject: 'Printer on fire',
      description: 'Third floor.',
      priority: 'high',
    });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      output: { ticket: { id: number; subject: string; priority: string } };
      variables: Record<string, unknown>;
      meta: { step: string; connection: string };
    };
    expect(structured.output.ticket).toMatchObject({ subject: 'Printer on fire', priority: 'high' });
    expect(structured.variables.ticket_id).toBe(structured.output.ticket.id);
    expect(structured.meta).toMatchObject({ step: 'ticketing.create_ticket', connection: 'tickets-main' });
    expect(result.content[0]?.text).toContain('ticketing.create_ticket succeeded');
    const posted = sent().filter((entry) => entry.method === 'POST');
    expect(posted).toHaveLength(1);
    expect(JSON.parse(posted[0]?.rawBody ?? '{}').ticket.subject).toBe('Printer on fire');
  });

  it('answers bad input with isError and the InputError JSON, sending nothing', async () => {
    const error = await refusedCreate({ description: 'No subject.', priority: 'high' }, 'subject');
    expect(error).toMatchObject({ retryable: false });
  });

  it('answers a misspelled field with isError naming it and the closest field, sending nothing', async () => {
    const error = await refusedCreate({ subject: 's', description: 'd', priorty: 'high' }, 'priorty');
    expect(String(error.message)).toContain('did you mean `priority`');
  });

  it('answers a missing ticket with isError and the not_found error', async () => {
    const { result } = await call('ticketing__get_ticket_info', { ticket_id: 987654 });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers an unknown tool with isError and the closest names', async () => {
    const result = await callText(client, 'ticketing__create_tiket', {});
    expect(result.isError).toBe(true);
    expect(errorOf(result).message).toContain('ticketing__create_ticket');
  });

  it('never shows the connection’s token to the client or in its log', () => {
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const secret of world.secrets) {
      for (const text of [...seen, stderr()]) expect(text).not.toContain(secret);
    }
  });
});
