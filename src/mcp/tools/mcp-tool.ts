import type { ObjectJsonSchema } from '../../agents/json-schema.js';
import type { ToolAnnotations, ToolDescriptor } from '../../agents/tool-descriptor.js';

/** A tool as `tools/list` returns it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectJsonSchema;
  outputSchema: ObjectJsonSchema;
  annotations: ToolAnnotations;
}

export function mcpToolOf(tool: ToolDescriptor): McpTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}
