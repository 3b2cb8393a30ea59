import { AgentTools } from '../../src/agents/agent-tools.js';
import { useFixture } from './fixture-lifecycle.js';
import { type TicketingFixture, ticketingFixture } from './ticketing-fixture.js';

/** The ticketing sandbox and the agent tools over its connection, as every agent adapter's test drives them. */
export interface SandboxAgentTools {
  fixture: TicketingFixture;
  tools: AgentTools;
  close(): Promise<void>;
}

async function openSandboxAgentTools(): Promise<SandboxAgentTools> {
  const fixture = await ticketingFixture();
  const tools = await AgentTools.load({ registry: fixture.registry, runtime: fixture.runtime });
  return { fixture, tools, close: () => fixture.close() };
}

/**
 * Opens the sandbox and its agent tools once for the enclosing describe and
 * closes them after: each adapter's test (AI SDK, OpenAI Agents, LangChain,
 * Mastra) runs its model loop against the same real tools.
 */
export function useSandboxAgentTools(): SandboxAgentTools {
  return useFixture(openSandboxAgentTools, 'all');
}
