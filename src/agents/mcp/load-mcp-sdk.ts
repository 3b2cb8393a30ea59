import { missingPeer } from '../../peers/optional-peer.js';
import { MCP_SDK_RANGE } from './mcp-sdk-range.js';

/**
 * The official MCP TypeScript SDK, an optional peer dependency: imported
 * only here, when an MCP server is started, never by the rest of the package.
 */
export async function loadMcpSdk() {
  const missing = missingPeer('@modelcontextprotocol/sdk', MCP_SDK_RANGE, 'The MCP server');
  const [server, types, stdio, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js').catch(missing),
    import('@modelcontextprotocol/sdk/types.js').catch(missing),
    import('@modelcontextprotocol/sdk/server/stdio.js').catch(missing),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js').catch(missing),
  ]);
  return {
    Server: server.Server,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    StdioServerTransport: stdio.StdioServerTransport,
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
  };
}

export type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
