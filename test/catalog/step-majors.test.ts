import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentTools } from '../../src/agents/agent-tools.js';
import { stepIdOf, toolNameOf } from '../../src/agents/tool-name.js';
import { buildManifest } from '../../src/catalog/manifest.js';
import { InputError } from '../../src/errors/index.js';
import type { RunningMcpServer } from '../../src/mcp/transports/serve-mcp.js';
import { upgradeListTicketsInput } from '../../steps/ticketing/lib/list-tickets-major-1.js';
import { connectHttp, serveFlat } from '../mcp/mcp-http-fixture.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

// List Tickets 2.0 holds the creation range as one `created` object; major 1 (two fields) runs through
// a migration to it. Both run here side by side against the sandbox, on the library and over MCP.

let fx: TicketingFixture;
beforeAll(async () => {
  fx = await ticketingFixture();
});
afterAll(() => fx?.close());

const ids = (output: { tickets: { id: number }[] }) => output.tickets.map((ticket) => ticket.id).sort();

describe('the migration from List Tickets major 1 to major 2', () => {
  it('moves the two range fields into `created`, and leaves it out when neither is given', () => {
    expect(
      upgradeListTicketsInput({
        status: 'open',
        created_after: '2026-01-01',
        created_before: '2026-02-01',
        limit: 5,
      }),
    ).toEqual({ status: 'open', created: { after: '2026-01-01', before: '2026-02-01' }, limit: 5 });
    expect(upgradeListTicketsInput({ created_before: '2026-02-01', limit: 25 })).toEqual({
      created: { before: '2026-02-01' },
      limit: 25,
    });
    expect(upgradeListTicketsInput({ limit: 25 })).toEqual({ limit: 25 });
  });
});

describe('majors 1 and 2 side by side on the library', () => {
  it('answer the same tickets for the same range, each named with its own id in meta', async () => {
    const old = await fx.invoke('ticketing.list_tickets@1', { created_after: '2000-01-01', limit: 100 });
    const latest = await fx.invoke('ticketing.list_tickets', {
      created: { after: '2000-01-01' },
      limit: 100,
    });
    const pinned = await fx.invoke('ticketing.list_tickets@2', {
      created: { after: '2000-01-01' },
      limit: 100,
    });
    expect(ids(old.output).length).toBeGreaterThan(0);
    expect(ids(old.output)).toEqual(ids(latest.output));
    expect(ids(pinned.output)).toEqual(ids(latest.output));
    // Major 1's default mapping reads the same paths: its variables come out the same.
    expect(old.variables.ticket_ids).toEqual(latest.variables.ticket_ids);
    expect(old.meta).toMatchObject({ step: 'ticketing.list_tickets@1' });
    expect(latest.meta).toMatchObject({ step: 'ticketing.list_tickets' });
    const none = await fx.invoke('ticketing.list_tickets@1', { created_before: '2000-01-01' });
    expect(none.output.tickets).toEqual([]);
  });

  it('runs every earlier major’s examples of the catalogue against the sandbox', async () => {
    const runs = fx.registry
      .listSteps()
      .flatMap((step) =>
        (step.earlier ?? []).flatMap((earlier) =>
          (earlier.examples ?? []).map((example) => ({
            reference: `${step.id}@${earlier.version.split('.')[0]}`,
            example,
          })),
        ),
      );
    expect(runs.map((run) => run.reference)).toContain('ticketing.list_tickets@1');
    for (const { reference, example } of runs) {
      const result = await fx.invokeUnchecked(reference, example.input);
      expect(result.meta, `${reference}: ${example.title}`).toMatchObject({ step: reference });
    }
  });

  it('validates each major against its own schema, before any request', async () => {
    const before = fx.requests('ticketing').length;
    await expect(
      fx.invokeUnchecked('ticketing.list_tickets@1', { created: { after: '2000-01-01' } }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
      fields: [expect.objectContaining({ path: 'created' })],
    });
    await expect(
      fx.invokeUnchecked('ticketing.list_tickets', { created_after: '2000-01-01' }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
    });
    expect(fx.requests('ticketing').length).toBe(before);
  });

  it('refuses a major the step does not serve with a typed error naming the ones it does', async () => {
    const error = await fx.invokeUnchecked('ticketing.list_tickets@3', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'version', message: 'unknown major; available: 2, 1' }],
    });
    expect((error as Error).message).toContain('ticketing.list_tickets@2, ticketing.list_tickets@1');
    expect(() => fx.registry.requireStep('ticketing.get_ticket_info@2')).toThrow(
      /ticketing\.get_ticket_info@1/,
    );
    // A step that never declared a version answers to @1, as itself.
    expect(fx.registry.requireStep('ticketing.get_ticket_info@1')).toBe(
      fx.registry.requireStep('ticketing.get_ticket_info'),
    );
  });

  it('lists major 1 in the manifest as deprecated, with its replacement, end date and schemas', () => {
    const listed = buildManifest(fx.registry).steps.find((step) => step.id === 'ticketing.list_tickets')!;
    expect(listed.version).toBe('2.0');
    expect(listed.earlier).toEqual([
      expect.objectContaining({
        version: '1.0',
        deprecated: { replacement: 'ticketing.list_tickets@2', endsOn: '2027-06-30' },
        input: expect.objectContaining({
          properties: expect.objectContaining({ created_after: expect.anything() }),
        }),
      }),
    ]);
    // Steps that never declared a version are 1.0, and list no earlier majors.
    const plain = buildManifest(fx.registry).steps.find((step) => step.id === 'ticketing.create_ticket')!;
    expect([plain.version, 'earlier' in plain]).toEqual(['1.0', false]);
  });
});

describe('majors 1 and 2 side by side over MCP', () => {
  let server: RunningMcpServer & { url: string };
  afterAll(() => server?.close());

  it('names a major in the tool name reversibly', () => {
    expect(toolNameOf('ticketing.list_tickets@1')).toBe('ticketing__list_tickets__v1');
    expect(stepIdOf('ticketing__list_tickets__v1')).toBe('ticketing.list_tickets@1');
    expect(stepIdOf(toolNameOf('ticketing.list_tickets'))).toBe('ticketing.list_tickets');
  });

  it('a server pinned to major 1 and the latest offers both, says major 1 is deprecated, and runs each', async () => {
    server = await serveFlat(fx, { steps: ['ticketing.list_tickets@1', 'ticketing.list_tickets'] });
    const client = await connectHttp(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'ticketing__list_tickets__v1',
        'ticketing__list_tickets',
      ]);
      const [old, latest] = tools;
      expect(old!.description).toMatch(
        /^Deprecated: served until 2027-06-30; use ticketing\.list_tickets@2 instead\./,
      );
      expect(latest!.description).not.toContain('Deprecated');
      expect(Object.keys(old!.inputSchema.properties ?? {})).toContain('created_after');
      expect(Object.keys(latest!.inputSchema.properties ?? {})).toContain('created');
      const ran = await client.callTool({
        name: 'ticketing__list_tickets__v1',
        arguments: { created_after: '2000-01-01' },
      });
      const ranLatest = await client.callTool({
        name: 'ticketing__list_tickets',
        arguments: { created: { after: '2000-01-01' } },
      });
      expect(ran.isError).toBeFalsy();
      const oldOutput = (ran.structuredContent as { output: { tickets: { id: number }[] } }).output;
      const newOutput = (ranLatest.structuredContent as { output: { tickets: { id: number }[] } }).output;
      expect(ids(oldOutput)).toEqual(ids(newOutput));
    } finally {
      await client.close();
    }
  });

  it('an agent not pinned still reaches a saved major-1 tool name, and refuses a major that is not served', async () => {
    const tools = await AgentTools.load({ registry: fx.registry, runtime: fx.runtime });
    expect(tools.tools.some((tool) => tool.name === 'ticketing__list_tickets__v1')).toBe(false);
    const ran = await tools.callTool('ticketing__list_tickets__v1', { created_after: '2000-01-01' });
    expect((ran.output as { tickets: unknown[] }).tickets.length).toBeGreaterThan(0);
    await expect(tools.callTool('ticketing__list_tickets__v3', {})).rejects.toMatchObject({
      code: 'input_invalid',
    });
    await expect(
      AgentTools.load({ registry: fx.registry, runtime: fx.runtime, steps: ['ticketing.list_tickets@4'] }),
    ).rejects.toThrow(/ticketing\.list_tickets@2, ticketing\.list_tickets@1/);
  });
});
