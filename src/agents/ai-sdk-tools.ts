import { missingPeer } from '../peers/optional-peer.js';
import type { AgentTools } from './agent-tools.js';
import { outcomeJson, type ToolOutcome } from './tool-outcome.js';

/**
 * One AI SDK `tool()` as `toAiSdkTools` makes it. Declared here rather than
 * taken from `ai` (an optional peer), so these declarations compile where
 * `ai` is not installed; it is assignable to the AI SDK's `ToolSet` entries,
 * which the tool-exports test holds by handing it to `generateText`.
 */
export interface AiSdkTool {
  title: string;
  description: string;
  /**
   * The AI SDK schema that `jsonSchema()` made from the tool's JSON input
   * schema. Its type lives in `ai` and is keyed by a symbol no other package
   * can name, so it is left open here.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the one way to be assignable to `ai`'s schema without naming it.
  inputSchema: any;
  /** Runs the step; never throws for a step's failure, so the model reads the error and can correct its input. */
  execute: (
    input: Record<string, unknown>,
    options: { abortSignal?: AbortSignal | undefined; toolCallId?: string | undefined },
  ) => Promise<Record<string, unknown>>;
}

/** What an AI SDK tool's `execute` returns: the result, or `{error}` with the error's JSON so the model can correct itself. */
export function aiSdkToolResult(outcome: ToolOutcome): { [key: string]: unknown } {
  return outcomeJson(outcome);
}

/**
 * The tools as a record of AI SDK `tool()`s (package `ai`, 6.x, an optional
 * peer): each with its JSON input schema and an `execute` bound to the
 * registry through `AgentTools.runTool`. `ai` is imported only here, when
 * called.
 */
export async function toAiSdkTools(tools: AgentTools): Promise<Record<string, AiSdkTool>> {
  const ai = await import('ai').catch(missingPeer('ai', '^6', 'toAiSdkTools'));
  const record: Record<string, AiSdkTool> = {};
  for (const descriptor of tools.tools) {
    const made: AiSdkTool = {
      title: descriptor.title,
      description: descriptor.description,
      inputSchema: ai.jsonSchema<Record<string, unknown>>(descriptor.inputSchema),
      execute: async (args, options) =>
        aiSdkToolResult(
          await tools.runTool(descriptor.name, args, {
            signal: options.abortSignal,
            toolCallId: options.toolCallId,
          }),
        ),
    };
    // Passing it through `tool()` is where the compiler holds our type to the AI SDK's.
    record[descriptor.name] = ai.tool<Record<string, unknown>, Record<string, unknown>>(made) as AiSdkTool;
  }
  return record;
}
