import type { AgentTools } from './agent-tools.js';
import type { ObjectJsonSchema } from './json-schema.js';
import { outcomeJson, type ToolOutcome } from './tool-outcome.js';

/** A client tool of Anthropic's Messages API. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
}

/** The offered steps as Anthropic client tools; pass the result as `tools` of `messages.create`. */
export function toAnthropicTools(tools: AgentTools): AnthropicTool[] {
  return tools.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}

/** The `tool_result` block answering a `tool_use`; errors carry `is_error` so the model corrects itself. */
export function anthropicToolResult(toolUseId: string, outcome: ToolOutcome) {
  return {
    type: 'tool_result' as const,
    tool_use_id: toolUseId,
    content: JSON.stringify(outcomeJson(outcome)),
    is_error: !outcome.ok,
  };
}
