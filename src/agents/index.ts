/**
 * `toolsteps/agents`: the steps as tools for agent runtimes, every export a
 * thin adapter over one dispatcher (`AgentTools.callTool`) and the one
 * invocation pipeline. Provider-neutral: an SDK (`ai`, `@openai/agents`,
 * `@langchain/core`, `@mastra/core`, all optional peers) is imported only
 * inside the adapter that needs it, when it is called, and no declaration
 * here names one.
 *
 * @module toolsteps/agents
 */
export { stripAbsentNulls } from './absent-nulls.js';
export { AgentTools, type AgentToolsOptions, type CallToolOptions } from './agent-tools.js';
export { type AiSdkTool, aiSdkToolResult, toAiSdkTools } from './ai-sdk-tools.js';
export { type AnthropicTool, anthropicToolResult, toAnthropicTools } from './anthropic-tools.js';
export type { ConnectionOption } from './connection-choice.js';
export type { JsonSchema, ObjectJsonSchema } from './json-schema.js';
export { LANGCHAIN_CORE_RANGE, type LangChainTool, langchainTools } from './langchain-tools.js';
export { LiveAgentTools } from './live-agent-tools.js';
export { MASTRA_CORE_RANGE, type MastraTool, mastraTools } from './mastra-tools.js';
export {
  OPENAI_AGENTS_RANGE,
  type OpenAIAgentsParameters,
  type OpenAIAgentsTool,
  type OpenAIAgentsToolsOptions,
  openaiAgentsTools,
} from './openai-agents-tools.js';
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
