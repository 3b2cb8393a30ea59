/**
 * `toolsteps/mcp`: the steps as an MCP server, on the official MCP
 * TypeScript SDK (`@modelcontextprotocol/sdk`, an optional peer dependency
 * imported only when a server starts).
 *
 * @module toolsteps/mcp
 */

export { isLoopbackHost } from '../server/host-origin-guard.js';
export { MCP_SDK_RANGE } from './mcp-sdk-range.js';
export { catalogueTools, FLAT_TOOL_LIMIT } from './tools/catalogue-tools.js';
export type { McpTool } from './tools/mcp-tool.js';
export type { McpToolMode } from './tools/mcp-tool-mode.js';
export { type McpToolResult, mcpToolResult } from './tools/mcp-tool-result.js';
export {
  DEFAULT_MCP_CONNECTION_LIMITS,
  type McpConnectionLimits,
} from './transports/mcp-connection-limits.js';
export type { McpSessionLoad } from './transports/mcp-session-load.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  type McpHttpServeOptions,
  type McpServeOptions,
  type RunningMcpHttpServer,
  type RunningMcpServer,
  serveMcpHttp,
  serveMcpStdio,
} from './transports/serve-mcp.js';
