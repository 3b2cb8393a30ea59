import { describe, expect, it } from 'vitest';
import { stripAbsentNulls } from '../../src/agents/absent-nulls.js';
import { AgentTools } from '../../src/agents/agent-tools.js';
import { LiveAgentTools } from '../../src/agents/live-agent-tools.js';
import { listMcpTools } from '../../src/mcp/mcp-server.js';
import { FLAT_TOOL_LIMIT } from '../../src/mcp/tools/catalogue-tools.js';
import type { Connection } from '../../src/model/connection.js';
import { missingPeer } from '../../src/peers/optional-peer.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';

function connection(id: string, integration: string): Connection {
  return {
    id,
    integration,
    kind: 'api_key',
    fields: {},
    secrets: { apiKey: 'k' },
    createdAt: 0,
    updatedAt: 0,
  };
}

function everyIntegration(): Connection[] {
  return createRegistry()
    .listIntegrations()
    .map((integration) => connection(integration.id.replace(/_/g, '-'), integration.id));
}

describe('AgentTools filters', () => {
  it('offer only the listed integrations, only read steps with readOnly, and nothing without a connection', async () => {
    const runtime = new Runtime({ store: new MemoryConnectionStore([connection('t', 'ticketing')]) });
    const all = await AgentTools.load({ registry: createRegistry(), runtime });
    expect(all.tools.every((tool) => tool.stepId.startsWith('ticketing.'))).toBe(true);
    const reads = await AgentTools.load({ registry: createRegistry(), runtime, readOnly: true });
    expect(reads.tools.map((tool) => tool.stepId).sort()).toEqual([
      'ticketing.get_current_user',
      'ticketing.get_group',
      'ticketing.get_macro',
      'ticketing.get_organization',
      'ticketing.get_ticket_field',
      'ticketing.get_ticket_form',
      'ticketing.get_ticket_info',
      'ticketing.get_user',
      'ticketing.list_comments',
      'ticketing.list_groups',
      'ticketing.list_macros',
      'ticketing.list_organizations',
      'ticketing.list_suspended_tickets',
      'ticketing.list_ticket_fields',
      'ticketing.list_ticket_forms',
      'ticketing.list_tickets',
      'ticketing.list_users',
      'ticketing.list_view_tickets',
      'ticketing.list_views',
      'ticketing.search_macros',
      'ticketing.search_tickets',
      'ticketing.search_users',
      'ticketing.show_macro_changes',
    ]);
    const none = await AgentTools.load({
      registry: createRegistry(),
      runtime,
      integrations: ['deployments'],
    });
    expect(none.tools).toEqual([]);
  });

  it('refuse to pin a connection that is not in the store', async () => {
    const runtime = new Runtime({ store: new MemoryConnectionStore([connection('t', 'ticketing')]) });
    await expect(
      AgentTools.load({ registry: createRegistry(), runtime, connections: ['nope'] }),
    ).rejects.toMatchObject({ code: 'not_found', fields: [{ path: 'connection' }] });
  });

  it('refuse a paid lookup above the credit budget before sending', async () => {
    const runtime = new Runtime({ store: new MemoryConnectionStore(everyIntegration()) });
    const tools = await AgentTools.load({ registry: createRegistry(), runtime, creditBudget: 0 });
    const outcome = await tools.runTool('contact_data__find_contact', { email: 'a@example.com' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'credit_budget_exceeded', sent: false } });
  });
});

describe('stripAbsentNulls', () => {
  it('drops a null that stands for an absent optional field, keeps one the schema takes', () => {
    const schema = {
      type: 'object',
      properties: {
        subject: { type: 'string' },
        priority: { type: 'string' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        fields: {
          type: 'array',
          items: { type: 'object', properties: { id: {}, value: {} }, required: ['id', 'value'] },
        },
      },
      required: ['subject'],
    };
    expect(
      stripAbsentNulls(
        { subject: null, priority: null, note: null, fields: [{ id: 1, value: null }] },
        schema,
      ),
    ).toEqual({ subject: null, note: null, fields: [{ id: 1, value: null }] });
  });
});

describe('catalogue mode', () => {
  it(`switches on by itself above ${FLAT_TOOL_LIMIT} tools, and --flat keeps one tool per step`, async () => {
    const registry = createRegistry();
    const runtime = new Runtime({ store: new MemoryConnectionStore(everyIntegration()) });
    const live = await LiveAgentTools.load({ registry, runtime });
    const count = live.current.tools.length;
    // The catalogue itself is past the limit since issue 24's deployments steps: auto serves the three tools.
    expect(count).toBeGreaterThan(FLAT_TOOL_LIMIT);
    expect(listMcpTools(live, 'auto').map((tool) => tool.name)).toEqual([
      'search_steps',
      'describe_step',
      'list_options',
      'run_step',
    ]);
    // One tool per step, and list_options for the fields with choices.
    expect(listMcpTools(live, 'flat')).toHaveLength(count + 1);
    // Without a field that has choices, there is nothing for list_options to answer.
    const noChoices = await LiveAgentTools.load({ registry, runtime, integrations: ['governance'] });
    expect(listMcpTools(noChoices, 'flat').map((tool) => tool.name)).not.toContain('list_options');
    const big = createRegistry();
    for (const step of registry.listSteps()) {
      if (big.listSteps().length > FLAT_TOOL_LIMIT) break;
      const suffix = step.id.split('.')[1];
      big.registerStep({ ...step, id: `${step.integration.id}.copy_of_${suffix}`, aliases: [] });
    }
    const large = await LiveAgentTools.load({ registry: big, runtime });
    expect(large.current.tools.length).toBeGreaterThan(FLAT_TOOL_LIMIT);
    expect(listMcpTools(large, 'auto').map((tool) => tool.name)).toEqual([
      'search_steps',
      'describe_step',
      'list_options',
      'run_step',
    ]);
    expect(listMcpTools(large, 'flat')).toHaveLength(large.current.tools.length + 1);
    expect(listMcpTools(live, 'catalog')).toHaveLength(4);
  });

  it('lists_changed once per change of the connections', async () => {
    const store = new MemoryConnectionStore([connection('t', 'ticketing')]);
    const live = await LiveAgentTools.load({ registry: createRegistry(), runtime: new Runtime({ store }) });
    let heard = 0;
    live.onChange(() => {
      heard += 1;
    });
    expect(await live.refresh()).toBe(false);
    await store.put(connection('d', 'deployments'));
    expect(await live.refresh()).toBe(true);
    expect(await live.refresh()).toBe(false);
    expect(heard).toBe(1);
    expect(live.current.tools.some((tool) => tool.stepId === 'deployments.list_deployments')).toBe(true);
  });
});

describe('an optional peer that is not installed', () => {
  it('fails with the package name and how to install it', async () => {
    // @ts-expect-error: a package that does not exist, imported for real.
    const attempt = import('toolsteps-missing-peer-for-tests').catch(
      missingPeer('toolsteps-missing-peer-for-tests', '^1', 'This feature'),
    );
    await expect(attempt).rejects.toThrow(
      'This feature needs the optional package toolsteps-missing-peer-for-tests, which is not installed. Install it with: npm install toolsteps-missing-peer-for-tests@"^1"',
    );
  });
});
