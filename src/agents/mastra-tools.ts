import * as z from 'zod';
import { missingPeer } from '../peers/optional-peer.js';
import type { AgentTools } from './agent-tools.js';
import type { ToolDescriptor } from './tool-descriptor.js';
import { outcomeJson } from './tool-outcome.js';

/**
 * The semver range of Mastra this adapter is written against: the 0.24 line
 * (the last on Node 20) and the 1.x line (Node 22.13+), whose `execute`
 * signatures differ; the adapter answers both.
 */
export const MASTRA_CORE_RANGE = '>=0.24.0 <2';

/**
 * One tool as `mastraTools` makes it with Mastra's own `createTool`: its
 * input schema is the step's JSON input schema as a zod schema
 * (`z.fromJSONSchema`), which Mastra checks arguments against and shows the
 * model. Declared here rather than taken from `@mastra/core` (an optional
 * peer) so these declarations compile where it is not installed; assignable
 * to an entry of `new Agent({ tools })`, which the adapter test holds.
 */
export type MastraTool = {
  id: string;
  description: string;
  inputSchema: z.ZodType;
  /**
   * Runs the step; resolves to `{output, variables, meta}`, or to `{error}`
   * with the error's JSON so the model can correct itself.
   */
  // biome-ignore lint/suspicious/noExplicitAny: Mastra's execution context, which only it can name (and which changed in 1.x).
  execute: (first: any, second?: any) => Promise<{ [key: string]: unknown }>;
};

/** Steps' fields are snake_case, so a `runtimeContext` key can only be Mastra 0.x's context object. */
function isLegacyContext(first: unknown): first is { context: unknown } {
  return typeof first === 'object' && first !== null && 'runtimeContext' in first && 'context' in first;
}

/**
 * Mastra 0.x calls `execute({ context: input, runtimeContext, ... }, { abortSignal })`;
 * 1.x calls `execute(input, { abortSignal, ... })`. The arguments, the signal and the tool call id
 * (the AI SDK's, which Mastra passes on), either way.
 */
export function mastraCallOf(
  first: unknown,
  second: unknown,
): { input: unknown; signal: AbortSignal | undefined; toolCallId: string | undefined } {
  const { abortSignal: signal, toolCallId } =
    (second as { abortSignal?: AbortSignal; toolCallId?: string } | undefined) ?? {};
  const call = { signal, toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined };
  return isLegacyContext(first) ? { input: first.context, ...call } : { input: first, ...call };
}

/**
 * The schema Mastra shows the model and checks arguments against before
 * `execute`. Mastra's own refusal would reach the model without our code,
 * fields and `sent: false`; arguments that do not fit are handed to
 * `execute` as they came instead (zod's `catch` with the input), where the
 * step's validation refuses them, sends nothing, and answers `{error}`. The
 * shape the model reads is the schema's, unchanged.
 */
function answeredByTheStep(schema: z.ZodType): z.ZodType {
  return schema.catch((refused: { input: unknown }) => refused.input);
}

function mastraTool(tools: AgentTools, descriptor: ToolDescriptor) {
  return {
    id: descriptor.name,
    description: descriptor.description,
    inputSchema: answeredByTheStep(z.fromJSONSchema(descriptor.inputSchema)),
    execute: async (first: unknown, second?: unknown) => {
      const { input, signal, toolCallId } = mastraCallOf(first, second);
      return outcomeJson(await tools.runTool(descriptor.name, input, { signal, toolCallId }));
    },
  };
}

/**
 * The tools as Mastra tools (`createTool` of `@mastra/core/tools`, an
 * optional peer imported only here when called), keyed by tool name, for
 * `new Agent({ tools })`. Each runs through `AgentTools.runTool`, so the
 * same pipeline validates and runs the call as everywhere else.
 */
export async function mastraTools(tools: AgentTools): Promise<Record<string, MastraTool>> {
  const { createTool } = await import('@mastra/core/tools').catch(
    missingPeer('@mastra/core', MASTRA_CORE_RANGE, 'mastraTools'),
  );
  const record: Record<string, MastraTool> = {};
  for (const descriptor of tools.tools) {
    record[descriptor.name] = createTool(mastraTool(tools, descriptor)) as MastraTool;
  }
  return record;
}
