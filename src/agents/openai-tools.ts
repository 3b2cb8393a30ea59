import type { AgentTools } from './agent-tools.js';
import type { ObjectJsonSchema } from './json-schema.js';
import { toStrictSchema } from './openai-strict-schema.js';
import type { ToolDescriptor } from './tool-descriptor.js';
import { outcomeJson, type ToolOutcome } from './tool-outcome.js';

/** A step as an OpenAI function: its name, the description written for models, and its input's JSON Schema. */
export interface OpenAIFunction {
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
  strict: boolean;
}

/** A function tool of the Responses API (`tools` of `responses.create`). */
export type OpenAIResponsesTool = { type: 'function' } & OpenAIFunction;

/** A function tool of the Chat Completions API (`tools` of `chat.completions.create`). */
export interface OpenAIChatTool {
  type: 'function';
  function: OpenAIFunction;
}

/** Which OpenAI tool shape to produce, and whether to follow its strict schema rules. */
export interface OpenAIToolsOptions {
  /** Follow OpenAI's strict rules (Structured Outputs) where a schema has a strict form. Default true. */
  strict?: boolean;
  /** Which API's tool shape. Default `responses`. */
  format?: 'responses' | 'chat';
}

function openAIFunction(tool: ToolDescriptor, strict: boolean): OpenAIFunction {
  const strictSchema = strict ? toStrictSchema(tool.inputSchema) : undefined;
  return {
    name: tool.name,
    description: tool.description,
    parameters: strictSchema ?? tool.inputSchema,
    strict: strictSchema !== undefined,
  };
}

/**
 * The tools as OpenAI function tools. With `strict`, a model sends `null`
 * for optional fields it leaves out; `AgentTools.callTool` strips those
 * nulls before validation, so pass its arguments through unchanged.
 */
export function toOpenAITools(
  tools: AgentTools,
  options: OpenAIToolsOptions & { format: 'chat' },
): OpenAIChatTool[];
export function toOpenAITools(
  tools: AgentTools,
  options?: OpenAIToolsOptions & { format?: 'responses' },
): OpenAIResponsesTool[];
export function toOpenAITools(
  tools: AgentTools,
  options: OpenAIToolsOptions = {},
): OpenAIResponsesTool[] | OpenAIChatTool[] {
  const functions = tools.tools.map((tool) => openAIFunction(tool, options.strict ?? true));
  if (options.format === 'chat') return functions.map((fn) => ({ type: 'function' as const, function: fn }));
  return functions.map((fn) => ({ type: 'function' as const, ...fn }));
}

/** A `function_call_output` item for the Responses API's next input. */
export function openAIResponsesToolResult(callId: string, outcome: ToolOutcome) {
  return {
    type: 'function_call_output' as const,
    call_id: callId,
    output: JSON.stringify(outcomeJson(outcome)),
  };
}

/** A `tool` message for the Chat Completions API's next request. */
export function openAIChatToolResult(toolCallId: string, outcome: ToolOutcome) {
  return { role: 'tool' as const, tool_call_id: toolCallId, content: JSON.stringify(outcomeJson(outcome)) };
}
