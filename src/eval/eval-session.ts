import type { AgentTools } from '../agents/agent-tools.js';
import { toolNameOf } from '../agents/tool-name.js';
import { outcomeJson } from '../agents/tool-outcome.js';
import { callCatalogueTool, catalogueTools } from '../mcp/tools/catalogue-tools.js';
import type { EvalSession, OfferedTool } from './eval-agent.js';

/** A catalogue tool's MCP result as the JSON a model reads: the structured content, or `{error}` from its text. */
function catalogueJson(result: {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  content: { text: string }[];
}) {
  if (result.structuredContent && !result.isError) return result.structuredContent;
  const text = result.content.map((part) => part.text).join('\n');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { error: { code: 'tool_error', message: text } };
  }
}

/** The session of one run: the offered tools in the scenario's mode over the recording runtime's AgentTools. */
export function evalSession(options: {
  scenario: string;
  run: number;
  task: EvalSession['task'];
  mode: EvalSession['mode'];
  agentTools: AgentTools;
  signal: AbortSignal;
}): EvalSession {
  const { agentTools, mode, signal } = options;
  const tools: OfferedTool[] =
    mode === 'flat'
      ? agentTools.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        }))
      : catalogueTools(agentTools).map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        }));
  const call: EvalSession['call'] = async (name, args, callOptions = {}) => {
    if (mode === 'catalog') return catalogueJson(await callCatalogueTool(agentTools, name, args, signal));
    const outcome = await agentTools.runTool(name, args, { signal, toolCallId: callOptions.toolCallId });
    return outcomeJson(outcome);
  };
  return {
    scenario: options.scenario,
    run: options.run,
    task: options.task,
    mode,
    tools,
    call,
    callStep: (step, input) =>
      mode === 'catalog' ? call('run_step', { step, input }) : call(toolNameOf(step), input),
    agentTools,
    signal,
  };
}
