import type { LiveAgentTools } from '../agents/live-agent-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { callCatalogueTool, catalogueTools, FLAT_TOOL_LIMIT } from './tools/catalogue-tools.js';
import { callFlatTool, flatTools } from './tools/flat-tools.js';
import type { McpTool } from './tools/mcp-tool.js';
import type { McpToolMode } from './tools/mcp-tool-mode.js';
import type { McpToolResult } from './tools/mcp-tool-result.js';
import { tracedToolCall } from './traced-tool-call.js';

export interface McpServerSettings {
  mode: McpToolMode;
  version: string;
}

/** Whether the tools are offered as the three catalogue tools right now (`auto` follows the current count). */
export function usesCatalogue(live: LiveAgentTools, mode: McpToolMode): boolean {
  return mode === 'catalog' || (mode === 'auto' && live.current.tools.length > FLAT_TOOL_LIMIT);
}

export function listMcpTools(live: LiveAgentTools, mode: McpToolMode): McpTool[] {
  const tools = live.current;
  return usesCatalogue(live, mode) ? catalogueTools(tools) : flatTools(tools);
}

/**
 * What the HTTP server tells the SDK of a request's token (`req.auth`), which
 * the SDK hands each handler as `extra.authInfo`: the token's id, the caller
 * the audit trail names for a write run through it.
 */
export interface McpCallerAuth {
  token: string;
  clientId: string;
  scopes: string[];
}

/** The audit trail's caller for a grant: its scoped token's id, or `mcp` for the server's own token. */
export function callerAuth(grant: { tokenId?: string | undefined }): McpCallerAuth {
  return { token: '', clientId: grant.tokenId ?? 'mcp', scopes: [] };
}

export async function callMcpTool(
  live: LiveAgentTools,
  mode: McpToolMode,
  name: string,
  args: unknown,
  call: { signal?: AbortSignal | undefined; caller?: string | undefined },
): Promise<McpToolResult> {
  const tools = live.current;
  if (usesCatalogue(live, mode)) return callCatalogueTool(tools, name, args, call.signal, call.caller);
  return callFlatTool(tools, name, args, call);
}

/**
 * One MCP server (one per client session) over the live tools. Tool calls
 * never fail at the protocol level: every failure is an `isError` result.
 * When the connections change, the client hears `notifications/tools/list_changed`.
 */
export function createMcpServer(sdk: McpSdk, live: LiveAgentTools, settings: McpServerSettings) {
  const server = new sdk.Server(
    { name: 'toolsteps', version: settings.version },
    {
      capabilities: { tools: { listChanged: true } },
      jsonSchemaValidator: sdk.schemaValidator,
      instructions:
        'Workflow tool steps (ticketing, B2B data, deployments, governance). Errors come back as results with a code, the fields to fix and whether a retry can help.',
    },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({
    tools: listMcpTools(live, settings.mode),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) =>
    tracedToolCall(request.params.name, { meta: request.params._meta, id: extra.requestId }, () =>
      callMcpTool(live, settings.mode, request.params.name, request.params.arguments, {
        signal: extra.signal,
        caller: extra.authInfo?.clientId,
      }),
    ),
  );
  const stopListening = live.onChange(() => {
    // A client that has gone away cannot hear it; the next session lists afresh.
    server.sendToolListChanged().catch(() => {});
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => {
      stopListening();
      resolve();
    };
  });
  return { server, closed };
}
