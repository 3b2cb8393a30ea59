import type { Tool } from 'ai';
import { missingPeer } from '../peers/optional-peer.js';
import type { AgentTools } from './agent-tools.js';
import { outcomeJson, type ToolOutcome } from './tool-outcome.js';

/** What an AI SDK tool's `execute` returns: the result, or `{error}` with the error's JSON so the model can correct itself. */
export function aiSdkToolResult(outcome: ToolOutcome): { [key: string]: unknown } {
  return outcomeJson(outcome);
}

/**
 * The tools as a record of AI SDK `tool()`s (package `ai`, 6.x, an optional
 * peer): each with its JSON input schema and an `execute` bound to the
 * registry through `AgentTools.runTool`. `ai` is imported only here, when
 * called; its types are a type-only import, erased from the built code.
 */
export async function toAiSdkTools(
  tools: AgentTools,
): Promise<Record<string, Tool<Record<string, unknown>, Record<string, unknown>>>> {
  const ai = await import('ai').catch(missingPeer('ai', '^6', 'toAiSdkTools'));
  const record: Record<string, Tool<Record<string, unknown>, Record<string, unknown>>> = {};
  for (const descriptor of tools.tools) {
    record[descriptor.name] = ai.tool({
      title: descriptor.title,
      description: descriptor.description,
      inputSchema: ai.jsonSchema<Record<string, unknown>>(descriptor.inputSchema),
      execute: async (args: Record<string, unknown>, options: { abortSignal?: AbortSignal }) =>
        aiSdkToolResult(await tools.runTool(descriptor.name, args, { signal: options.abortSignal })),
    });
  }
  return record;
}
