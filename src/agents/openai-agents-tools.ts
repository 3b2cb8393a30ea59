import { missingPeer } from '../peers/optional-peer.js';
import type { AgentTools } from './agent-tools.js';
import { type JsonSchema, requiredOf } from './json-schema.js';
import { toStrictSchema } from './openai-strict-schema.js';
import type { ToolDescriptor } from './tool-descriptor.js';
import { outcomeJson } from './tool-outcome.js';

/** The semver range of the OpenAI Agents SDK this adapter is written against. */
export const OPENAI_AGENTS_RANGE = '>=0.14.0 <1';

/**
 * A function tool's parameters as the Agents SDK types them: an object
 * schema with `properties` and `required`, closed (`false`, strict) or open.
 */
export type OpenAIAgentsParameters = JsonSchema & {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: boolean;
  description?: string;
};

/**
 * One function tool as `openaiAgentsTools` makes it with the SDK's own
 * `tool()`. Declared here rather than taken from `@openai/agents` (an
 * optional peer) so these declarations compile where it is not installed;
 * it is assignable to the SDK's `Tool`, which the adapter test holds by
 * handing the list to `new Agent({ tools })`.
 */
export interface OpenAIAgentsTool {
  type: 'function';
  name: string;
  description: string;
  parameters: OpenAIAgentsParameters;
  strict: boolean;
  /** Runs the step with the model's arguments (a JSON string) and answers its result or typed error as JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's run context and call details, which only it can name.
  invoke: (runContext: any, input: string, details?: any) => Promise<unknown>;
  /** Whether a person must approve the call first (`approval`): writes or destructive steps, as chosen. */
  // biome-ignore lint/suspicious/noExplicitAny: as above, for the SDK's approval check.
  needsApproval: (runContext: any, input: any, callId?: string) => Promise<boolean>;
  /** Always on: which steps an agent sees is chosen when the tools are made (`AgentToolsOptions`). */
  // biome-ignore lint/suspicious/noExplicitAny: as above, for the SDK's per-run filter.
  isEnabled: (runContext: any, agent: any) => Promise<boolean>;
}

/** How the steps become `@openai/agents` function tools. */
export interface OpenAIAgentsToolsOptions {
  /** Follow OpenAI's strict rules where a step's schema has a strict form. Default true. */
  strict?: boolean;
  /**
   * Which tools wait for a person's approval (the SDK's `needsApproval`,
   * which interrupts the run): `destructive` steps only, every step that
   * writes, or none. Default `none`.
   */
  approval?: 'none' | 'destructive' | 'writes';
}

/** The parameters and strictness of one tool: its strict form where it has one and `strict` is asked for. */
function parametersOf(descriptor: ToolDescriptor, strict: boolean) {
  const strictSchema = strict ? toStrictSchema(descriptor.inputSchema) : undefined;
  if (strictSchema) return { strict: true, parameters: strictSchema as OpenAIAgentsParameters };
  // A JSON object schema without `additionalProperties` is open; the SDK's non-strict type says so outright.
  const { additionalProperties = true, properties = {} } = descriptor.inputSchema;
  const parameters = {
    ...descriptor.inputSchema,
    properties,
    required: requiredOf(descriptor.inputSchema),
    additionalProperties,
  } as OpenAIAgentsParameters;
  return { strict: false, parameters };
}

function needsApproval(descriptor: ToolDescriptor, approval: OpenAIAgentsToolsOptions['approval']): boolean {
  if (approval === 'destructive') return descriptor.annotations.destructiveHint;
  if (approval === 'writes') return !descriptor.annotations.readOnlyHint;
  return false;
}

/**
 * The tools as function tools of the OpenAI Agents SDK (`@openai/agents`,
 * an optional peer, imported only here when called), for
 * `new Agent({ tools })`. Each runs through `AgentTools.runTool`: the model
 * reads `{output, variables, meta}`, or `{error}` with the error's JSON so it
 * can correct itself, as the tool's output. Strict tools' absent-field nulls
 * are stripped before validation, as for `toOpenAITools`.
 */
export async function openaiAgentsTools(
  tools: AgentTools,
  options: OpenAIAgentsToolsOptions = {},
): Promise<OpenAIAgentsTool[]> {
  const agents = await import('@openai/agents').catch(
    missingPeer('@openai/agents', OPENAI_AGENTS_RANGE, 'openaiAgentsTools'),
  );
  return tools.tools.map((descriptor): OpenAIAgentsTool => {
    const { strict, parameters } = parametersOf(descriptor, options.strict ?? true);
    const execute = async (
      input: unknown,
      _context: unknown,
      details?: { signal?: AbortSignal; toolCall?: { callId?: string } },
    ) => {
      const outcome = await tools.runTool(descriptor.name, input, {
        signal: details?.signal,
        toolCallId: details?.toolCall?.callId,
      });
      return JSON.stringify(outcomeJson(outcome));
    };
    const common = {
      name: descriptor.name,
      description: descriptor.description,
      execute,
      needsApproval: needsApproval(descriptor, options.approval),
    };
    // The SDK types strict and loose parameters apart; each call names the one it passes.
    const made = strict
      ? agents.tool({
          ...common,
          strict: true,
          parameters: parameters as typeof parameters & { additionalProperties: false },
        })
      : agents.tool({
          ...common,
          strict: false,
          parameters: parameters as typeof parameters & { additionalProperties: true },
        });
    // The SDK types `required` looser than the schema it was given; ours is held to the SDK's `Tool` by the test.
    return made as OpenAIAgentsTool;
  });
}
