/**
 * `toolsteps/mcp`: the steps as an MCP server, on the official MCP
 * TypeScript SDK (`@modelcontextprotocol/sdk`, an optional peer dependency
 * imported only when a server starts).
 *
 * @module toolsteps/mcp
 */
export { catalogueTools, FLAT_TOOL_LIMIT } from './catalogue-tools.js';
export { isLoopbackHost } from './http-guard.js';
export { DEFAULT_MCP_CONNECTION_LIMITS, type McpConnectionLimits } from './mcp-connection-limits.js';
export { MCP_SDK_RANGE } from './mcp-sdk-range.js';
export type { McpSessionLoad } from './mcp-session-load.js';
export type { McpTool } from './mcp-tool.js';
export type { McpToolMode } from './mcp-tool-mode.js';
export { type McpToolResult, mcpToolResult } from './mcp-tool-result.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  type McpHttpServeOptions,
  type McpServeOptions,
  type RunningMcpHttpServer,
  type RunningMcpServer,
  serveMcpHttp,
  serveMcpStdio,
} from './serve-mcp.js';
