import type { AgentTools } from '../agents/agent-tools.js';
import type { ObjectJsonSchema } from '../agents/json-schema.js';

/** A tool as the agent is offered it: a step (flat mode) or one of the catalogue's three tools. */
export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: ObjectJsonSchema;
}

/** What the harness hands an agent for one run. */
export interface EvalSession {
  scenario: string;
  /** 1-based run number of this scenario. */
  run: number;
  task: { text: string; input?: Record<string, unknown> | undefined };
  mode: 'flat' | 'catalog';
  /** The tools offered, in the scenario's mode. */
  tools: readonly OfferedTool[];
  /**
   * Calls an offered tool by name with a model's arguments. Never throws for
   * a step's failure: resolves to `{output, variables, meta}` or `{error}`,
   * what every SDK adapter hands its model.
   */
  call(name: string, args: unknown, options?: { toolCallId?: string }): Promise<Record<string, unknown>>;
  /** Calls a step by id in either mode (a scripted agent's shortcut). */
  callStep(step: string, input: unknown): Promise<Record<string, unknown>>;
  /** The flat tools behind the session, for SDK adapters (toAiSdkTools, toOpenAITools...). */
  agentTools: AgentTools;
  /** Aborted when the run's time is up. */
  signal: AbortSignal;
}

/** What an agent ends with: its final words, for the report. */
export interface AgentAnswer {
  text?: string | undefined;
}

/** Any agent: a name for the report and a run over one session. */
export interface EvalAgent {
  name: string;
  run(session: EvalSession): Promise<AgentAnswer | undefined>;
}

/** A function as an agent. */
export function agentFromFunction(
  name: string,
  run: (session: EvalSession) => Promise<AgentAnswer | undefined>,
): EvalAgent {
  return { name, run };
}
