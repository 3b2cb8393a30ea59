import { renderOutcome, type ToolOutcome } from '../../agents/tool-outcome.js';

/** A `tools/call` result as MCP defines it (the SDK's `CallToolResult`, restated plainly). */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
}

/**
 * A success carries `structuredContent` `{output, variables, meta}` (what the
 * tool's outputSchema describes) and a short text. An error is a result,
 * not a protocol error, so the model reads it and can correct itself: the
 * text holds the error's `toJSON()`. It carries no `structuredContent`,
 * which clients would check against the success schema.
 */
export function mcpToolResult(outcome: ToolOutcome): McpToolResult {
  if (outcome.ok) {
    return {
      content: [{ type: 'text', text: renderOutcome(outcome) }],
      structuredContent: { ...outcome.result },
    };
  }
  return {
    isError: true,
    content: [
      { type: 'text', text: `${renderOutcome(outcome)}\n${JSON.stringify({ error: outcome.error })}` },
    ],
  };
}

/** A result that is plain data (a search, a description). */
export function mcpDataResult(data: { [key: string]: unknown }): McpToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}
