import { AgentTools } from '../../src/agents/agent-tools.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryConnectionStore } from '../../src/store/memory/memory-connection-store.js';
import { createRegistry } from '../../steps/index.js';

/** Tools for every step of the catalogue: one connection per integration (never called), so each step is offered. */
export function everyStepTools(): Promise<AgentTools> {
  const registry = createRegistry();
  const connections = registry.listIntegrations().map((integration) => ({
    id: `${integration.id.replace(/_/g, '-')}-main`,
    integration: integration.id,
    label: `${integration.title} account`,
    kind: 'api_key' as const,
    fields: {},
    secrets: { apiKey: 'unused' },
    createdAt: 0,
    updatedAt: 0,
  }));
  return AgentTools.load({
    registry,
    runtime: new Runtime({ store: new MemoryConnectionStore(connections) }),
  });
}
