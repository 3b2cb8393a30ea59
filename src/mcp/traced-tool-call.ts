import { inSpan, markFailed, otelApiIfLoaded, type TraceCarrier } from '../telemetry/index.js';
import type { McpToolResult } from './tools/mcp-tool-result.js';

/** The W3C trace context a client put in a request's `_meta` (`traceparent`, `tracestate`), when it did. */
export function metaTraceContext(meta: unknown): TraceCarrier | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  if (typeof traceparent !== 'string') return undefined;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

/**
 * Runs one `tools/call` in a SERVER span named by the MCP conventions
 * (`tools/call <tool>`,
 * https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/), a child of the
 * caller's span when the request's `_meta` carries its `traceparent` (an
 * agent runtime that traces its MCP calls), so the invocation's span nests
 * under the agent's trace across the process boundary. A result that is an
 * error (`isError`) marks the span failed with `error.type` `tool_error`;
 * the invocation's own span below says which code.
 */
export function tracedToolCall(
  name: string,
  request: { meta: unknown; id: string | number | undefined },
  call: () => Promise<McpToolResult>,
): Promise<McpToolResult> {
  return inSpan(
    `tools/call ${name}`,
    {
      kind: 'server',
      parent: metaTraceContext(request.meta),
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': name,
        'jsonrpc.request.id': request.id === undefined ? undefined : String(request.id),
      },
    },
    async (span) => {
      const result = await call();
      const api = otelApiIfLoaded();
      if (span && api && result.isError) markFailed(api, span, { code: 'tool_error' });
      return result;
    },
  );
}
