import type { AgentTools } from '../../agents/agent-tools.js';
import type { ObjectJsonSchema } from '../../agents/json-schema.js';
import type { ToolDescriptor } from '../../agents/tool-descriptor.js';
import { errorJsonOf } from '../../agents/tool-outcome.js';
import { markOptions, type OptionsMark, optionsMarks } from '../../options/described-input.js';
import { type McpTool, mcpToolOf } from './mcp-tool.js';
import { type McpToolResult, mcpDataResult, mcpToolResult } from './mcp-tool-result.js';
import { ListOptionsInput, listOptions, listOptionsTool } from './options-tool.js';
import { parseArguments } from './tool-arguments.js';

/** What a field with choices says in its description, so a model that reads descriptions only finds `list_options`. */
function choicesHint(stepId: string, field: string, mark: OptionsMark): string {
  const after = mark.dependsOn.length
    ? `, with input holding ${mark.dependsOn.map((name) => `\`${name}\``).join(' and ')}`
    : '';
  return `Choices: call list_options with step "${stepId}" and field "${field}"${after}.`;
}

/**
 * A step's tool as flat mode offers it: each input field whose choices come
 * from the step's `options` carries the same `x-toolsteps-options` mark as
 * catalogue mode's describe_step shows, and says in its description to ask
 * `list_options`, so an agent picks an existing id instead of guessing one.
 */
function flatToolOf(tools: AgentTools, tool: ToolDescriptor): McpTool {
  const step = tools.registry.requireStep(tool.stepId);
  const marks = Object.entries(optionsMarks(step));
  if (!marks.length) return mcpToolOf(tool);
  const marked = markOptions(tool.inputSchema, step);
  const properties = { ...(marked.properties as Record<string, Record<string, unknown>>) };
  for (const [field, mark] of marks) {
    const property = properties[field];
    if (!property) continue;
    const hint = choicesHint(step.id, field, mark);
    const description = typeof property.description === 'string' ? `${property.description} ${hint}` : hint;
    properties[field] = { ...property, description };
  }
  const inputSchema: ObjectJsonSchema = { ...marked, properties };
  return { ...mcpToolOf(tool), inputSchema };
}

/** Whether any offered step has a field with choices: only then does flat mode offer `list_options`. */
function offersOptions(tools: AgentTools): boolean {
  return tools.tools.some(
    (tool) => Object.keys(optionsMarks(tools.registry.requireStep(tool.stepId))).length,
  );
}

/** Flat mode's tools: one per offered step, and `list_options` when any of them has a field with choices. */
export function flatTools(tools: AgentTools): McpTool[] {
  const stepTools = tools.tools.map((tool) => flatToolOf(tools, tool));
  return offersOptions(tools) ? [...stepTools, listOptionsTool('flat')] : stepTools;
}

/** `list_options` in flat mode: the step named by its id or, as the agent sees it, by its tool's name. */
async function flatListOptions(
  tools: AgentTools,
  args: unknown,
  signal: AbortSignal | undefined,
): Promise<McpToolResult> {
  try {
    const parsed = parseArguments(ListOptionsInput(), args, 'list_options');
    const step = tools.tool(parsed.step)?.stepId ?? parsed.step;
    return mcpDataResult(await listOptions(tools, { ...parsed, step }, signal));
  } catch (error) {
    return mcpToolResult({ ok: false, error: errorJsonOf(error) });
  }
}

/** Answers a call in flat mode: `list_options` when offered, else the step tool of that name. */
export async function callFlatTool(
  tools: AgentTools,
  name: string,
  args: unknown,
  call: { signal?: AbortSignal | undefined; caller?: string | undefined },
): Promise<McpToolResult> {
  if (name === 'list_options' && offersOptions(tools)) return flatListOptions(tools, args, call.signal);
  return mcpToolResult(await tools.runTool(name, args, call));
}
