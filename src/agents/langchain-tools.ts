import { missingPeer } from '../peers/optional-peer.js';
import type { AgentTools } from './agent-tools.js';
import type { ObjectJsonSchema } from './json-schema.js';
import { outcomeJson } from './tool-outcome.js';

/** The semver range of LangChain.js's core this adapter is written against. */
export const LANGCHAIN_CORE_RANGE = '^1.0.0';

/**
 * One structured tool as `langchainTools` makes it: a `DynamicStructuredTool`
 * of `@langchain/core`, of which this names the part we promise. Declared
 * here rather than taken from `@langchain/core` (an optional peer) so these
 * declarations compile where it is not installed. A type literal, not an
 * interface, so that it is assignable where LangChain takes tools by shape:
 * `createAgent({ tools })` and `model.bindTools(tools)`, as the adapter test
 * holds. (LangGraph's `ToolNode` names its class instead.)
 */
export type LangChainTool = {
  name: string;
  description: string;
  /** The step's JSON input schema, which LangChain checks arguments against before the call. */
  schema: ObjectJsonSchema;
  returnDirect: boolean;
  lc_namespace: string[];
  /**
   * Runs the tool: with plain arguments it resolves to the result's JSON
   * text, with a model's tool call (`{ id, name, args, type: 'tool_call' }`)
   * to a `ToolMessage` carrying it.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a ToolMessage or a string, as LangChain's own overloads decide.
  invoke(input: unknown, config?: { signal?: AbortSignal; [key: string]: unknown }): Promise<any>;
};

/**
 * The tools as LangChain.js structured tools (`tool()` of
 * `@langchain/core/tools`, an optional peer imported only here when called),
 * for `createAgent({ tools })`, `model.bindTools(tools)` or a loop of your
 * own. Each runs through `AgentTools.runTool` and answers with the JSON of
 * `{output, variables, meta}`, or of `{error}` with the error's code, fields
 * and hint, so the model reads what to fix instead of the run failing.
 */
export async function langchainTools(tools: AgentTools): Promise<LangChainTool[]> {
  const { tool, ToolInputParsingException } = await import('@langchain/core/tools').catch(
    missingPeer('@langchain/core', LANGCHAIN_CORE_RANGE, 'langchainTools'),
  );
  return tools.tools.map((descriptor): LangChainTool => {
    const run = async (input: unknown, config?: { signal?: AbortSignal; toolCall?: { id?: string } }) => {
      const outcome = await tools.runTool(descriptor.name, input, {
        signal: config?.signal,
        toolCallId: config?.toolCall?.id,
      });
      return JSON.stringify(outcomeJson(outcome));
    };
    const fields = { name: descriptor.name, description: descriptor.description };
    const made = tool(run, { ...fields, schema: descriptor.inputSchema });
    // Arguments the schema refuses go to a twin that takes any, so the step's own validation answers.
    const unchecked = tool(run, { ...fields, schema: ANY_ARGUMENTS });
    const checkedCall = made.call.bind(made);
    made.call = (async (...args: Parameters<typeof made.call>) => {
      try {
        return await checkedCall(...args);
      } catch (error) {
        // The class of the copy of @langchain/core that made the tool, so the check holds whichever copy it is.
        if (!(error instanceof ToolInputParsingException)) throw error;
        return unchecked.call(...(args as Parameters<typeof unchecked.call>));
      }
    }) as typeof made.call;
    return made as LangChainTool;
  });
}

/**
 * LangChain checks a tool's arguments against its schema before the tool
 * runs, and a refusal reaches the model as "Received tool input did not
 * match expected schema" with a stack, no field and no code: a model cannot
 * correct its call from that. The schema still describes the tool to the
 * model; a refused call is run unchecked instead, where our pipeline
 * validates it (nothing is sent) and answers `{error}` with the fields, the
 * code and the hint, as a tool message like any other answer.
 */
const ANY_ARGUMENTS = {};
