import { missingPeer } from '../peers/optional-peer.js';
import { MCP_SDK_RANGE } from './mcp-sdk-range.js';

/**
 * The official MCP TypeScript SDK, an optional peer dependency: imported
 * only here, when an MCP server is started, never by the rest of the package.
 */
export async function loadMcpSdk() {
  const missing = missingPeer('@modelcontextprotocol/sdk', MCP_SDK_RANGE, 'The MCP server');
  const [server, types, mediaType, ajv] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js').catch(missing),
    import('@modelcontextprotocol/sdk/types.js').catch(missing),
    import('@modelcontextprotocol/sdk/shared/mediaType.js').catch(missing),
    import('@modelcontextprotocol/sdk/validation/ajv').catch(missing),
  ]);
  return {
    Server: server.Server,
    /**
     * One JSON Schema validator for every server of this load: a Server
     * makes its own Ajv otherwise, about a millisecond of CPU per HTTP
     * session, for elicitation answers no tool here asks for.
     */
    schemaValidator: new ajv.AjvJsonSchemaValidator(),
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    CallToolRequestSchema: types.CallToolRequestSchema,
    // What the transports of our own (StdioMcpTransport, NodeHttpMcpTransport) check each message with, as the SDK's do.
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
    isInitializeRequest: types.isInitializeRequest,
    SUPPORTED_PROTOCOL_VERSIONS: types.SUPPORTED_PROTOCOL_VERSIONS,
    isJsonContentType: mediaType.isJsonContentType,
  };
}

export type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
