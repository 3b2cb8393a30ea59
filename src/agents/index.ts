/**
 * `toolsteps/agents`: the steps as tools for agent runtimes, every export a
 * thin adapter over one dispatcher (`AgentTools.callTool`) and the one
 * invocation pipeline. Provider-neutral: no SDK is imported here except
 * `ai`, and that only when `toAiSdkTools` is called.
 *
 * @module toolsteps/agents
 */
export { stripAbsentNulls } from './absent-nulls.js';
export { AgentTools, type AgentToolsOptions, type CallToolOptions } from './agent-tools.js';
export { type AiSdkTool, aiSdkToolResult, toAiSdkTools } from './ai-sdk-tools.js';
export { type AnthropicTool, anthropicToolResult, toAnthropicTools } from './anthropic-tools.js';
export type { ConnectionOption } from './connection-choice.js';
export type { JsonSchema, ObjectJsonSchema } from './json-schema.js';
export { LiveAgentTools } from './live-agent-tools.js';
export { toStrictSchema } from './openai-strict-schema.js';
export {
  type OpenAIChatTool,
  type OpenAIFunction,
  type OpenAIResponsesTool,
  type OpenAIToolsOptions,
  openAIChatToolResult,
  openAIResponsesToolResult,
  toOpenAITools,
} from './openai-tools.js';
export type { ToolAnnotations, ToolDescriptor } from './tool-descriptor.js';
export type { ToolFilter } from './tool-filter.js';
export { stepIdOf, toolNameOf, toolNamePattern } from './tool-name.js';
export { errorJsonOf, renderOutcome, type ToolErrorJson, type ToolOutcome } from './tool-outcome.js';
