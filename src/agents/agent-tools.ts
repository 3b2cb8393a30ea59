import type { Registry } from '../catalog/registry.js';
import { InputError, NotFoundError } from '../errors/index.js';
import type { OptionsCall } from '../options/resolve-options.js';
import type { InvocationResult, Runtime } from '../runtime/runtime.js';
import type { AnyStep } from '../step/define-step.js';
import { parseReference } from '../step/step-version.js';
import { stripAbsentNulls } from './absent-nulls.js';
import { type ConnectionChoices, loadConnectionChoices } from './connection-choice.js';
import { CONNECTION_ARGUMENT, describeTool, type ToolDescriptor } from './tool-descriptor.js';
import { stepPassesFilter, type ToolFilter } from './tool-filter.js';
import { stepIdOf } from './tool-name.js';
import { settle, type ToolOutcome } from './tool-outcome.js';

export interface AgentToolsOptions extends ToolFilter {
  registry: Registry;
  /** The runtime whose store holds the connections and whose pipeline runs every call. */
  runtime: Runtime;
  /** Most credits one call may spend; a paid lookup whose worst case is higher is refused before sending. */
  creditBudget?: number | undefined;
}

/** What a host may set on one tool call that the model must not choose: the account, and the call's lifetime. */
export interface CallToolOptions {
  /** A connection id that overrides the agent's choice (and any default). */
  connection?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Who calls, for the audit trail of write steps (an MCP token's id); default the runtime's caller. */
  caller?: string | undefined;
  /** The agent runtime's id of this tool call, for the invocation's span (`gen_ai.tool.call.id`). */
  toolCallId?: string | undefined;
}

/**
 * The steps an agent may call, as provider-neutral tools, and the one
 * dispatcher behind every export: a tool name maps back to its step, and
 * the call goes through the same invocation pipeline as the library and the
 * CLI. Only steps whose integration has a connection are offered, since an
 * agent can do nothing with the others; load again when connections change.
 */
export class AgentTools {
  readonly tools: readonly ToolDescriptor[];
  private readonly byName: ReadonlyMap<string, ToolDescriptor>;

  private constructor(
    private readonly options: AgentToolsOptions,
    readonly choices: ConnectionChoices,
  ) {
    const tools: ToolDescriptor[] = [];
    // Pinned references resolve (and an unknown one throws) here, when the agent is configured.
    const offered = options.steps
      ? [...new Set(options.steps.map((reference) => options.registry.requireStep(reference)))]
      : options.registry.listSteps();
    for (const step of offered) {
      const connections = choices.get(step.integration.id) ?? [];
      if (connections.length && stepPassesFilter(step, options)) tools.push(describeTool(step, connections));
    }
    this.tools = tools;
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Reads the connection store once and offers the steps that have a connection; call it again when connections change. */
  static async load(options: AgentToolsOptions): Promise<AgentTools> {
    return new AgentTools(options, await loadConnectionChoices(options.runtime.store, options.connections));
  }

  get registry(): Registry {
    return this.options.registry;
  }

  /**
   * The tool a model asked for by name, or undefined for a name this agent
   * was not offered: an earlier major's name (`..__v1`) is offered wherever
   * its step is, so a client that saved it keeps calling it.
   */
  tool(name: string): ToolDescriptor | undefined {
    const offered = this.byName.get(name);
    if (offered || !name.includes('__v')) return offered;
    try {
      return this.toolOfStep(stepIdOf(name));
    } catch {
      return undefined;
    }
  }

  /**
   * The tool of a step id (or a former id, or `id@major`), if it is offered;
   * a major that is not among the tools listed is served with the
   * connections of the step's offered major.
   */
  toolOfStep(stepId: string): ToolDescriptor | undefined {
    const step = this.options.registry.step(stepId);
    if (!step) return undefined;
    const offered = this.tools.find((tool) => tool.stepId === step.id);
    if (offered) return offered;
    const sibling = this.tools.find((tool) => sameStep(tool.stepId, step.id));
    if (!sibling) return undefined;
    const made = this.otherMajors.get(step.id) ?? describeTool(step, sibling.connections);
    this.otherMajors.set(step.id, made);
    return made;
  }

  /** Tools of majors that are not listed, made on first use. */
  private readonly otherMajors = new Map<string, ToolDescriptor>();

  /** Runs a tool; resolves to `{output, variables, meta}` or rejects with a typed error. */
  async callTool(name: string, args: unknown, options: CallToolOptions = {}): Promise<InvocationResult> {
    const tool = this.requireTool(name);
    const step = this.options.registry.requireStep(tool.stepId);
    const { connection: chosen, input } = splitArguments(args);
    const connection = this.connectionFor(tool, options.connection ?? chosen);
    return this.options.runtime.invoke(step as AnyStep, {
      connection,
      input: stripAbsentNulls(input, tool.stepInputSchema),
      creditBudget: this.options.creditBudget,
      signal: options.signal,
      ...(options.caller === undefined ? {} : { caller: options.caller }),
      ...(options.toolCallId === undefined ? {} : { toolCallId: options.toolCallId }),
    });
  }

  /**
   * The choices of one input field of an offered step (`registry.options`):
   * from the chosen connection, the step's only one, or none for a closed list.
   */
  listOptions(
    stepId: string,
    field: string,
    call: Omit<OptionsCall, 'connection'> & { connection?: string },
  ) {
    const tool = this.requireStepTool(stepId);
    const connection = this.connectionOrNone(tool, call.connection);
    return this.options.registry.options(this.options.runtime, tool.stepId, field, { ...call, connection });
  }

  /** The step's input schema (`registry.describe`), specialised to a connection's account when one is named. */
  describeInput(stepId: string, connection: string | undefined, signal?: AbortSignal) {
    const tool = this.requireStepTool(stepId);
    if (connection === undefined) return this.options.registry.describe(tool.stepId);
    const chosen = this.connectionFor(tool, connection);
    return this.options.registry.describe(tool.stepId, {
      runtime: this.options.runtime,
      connection: chosen,
      ...(signal ? { signal } : {}),
    });
  }

  /** The offered tool of a step id, or an InputError saying why there is none. */
  requireStepTool(stepId: string): ToolDescriptor {
    const step = this.options.registry.requireStep(stepId);
    const tool = this.toolOfStep(step.id);
    if (tool) return tool;
    throw new InputError(
      `Step ${step.id} is not offered here: its integration has no connection, or the server's filters leave it out.`,
      [{ path: 'step', message: 'not offered' }],
    );
  }

  /** The named connection (checked), the step's only one, or none when it has several and none is named. */
  private connectionOrNone(tool: ToolDescriptor, chosen: string | undefined): string | undefined {
    if (chosen !== undefined || tool.connections.length === 1) return this.connectionFor(tool, chosen);
    return undefined;
  }

  /** `callTool`, settled: never rejects, for the result helpers. */
  runTool(name: string, args: unknown, options: CallToolOptions = {}): Promise<ToolOutcome> {
    return settle(this.callTool(name, args, options));
  }

  private requireTool(name: string): ToolDescriptor {
    const tool = this.tool(name);
    if (tool) return tool;
    const words = name.replace(/_+/g, ' ');
    const near = this.options.registry
      .search(words, 10)
      .map((hit) => this.toolOfStep(hit.step.id)?.name)
      .filter((found): found is string => Boolean(found))
      .slice(0, 3);
    throw new InputError(
      `Unknown tool "${name}".${near.length ? ` Did you mean: ${near.join(', ')}?` : ''}`,
      [{ path: 'name', message: 'unknown tool' }],
    );
  }

  private connectionFor(tool: ToolDescriptor, chosen: unknown): string {
    const ids = tool.connections.map((option) => option.id);
    if (chosen === undefined || chosen === null) {
      if (ids.length === 1) return ids[0] as string;
      throw new InputError(`\`connection\` is required: one of ${ids.join(', ')}.`, [
        { path: CONNECTION_ARGUMENT, message: `required: one of ${ids.join(', ')}` },
      ]);
    }
    if (typeof chosen !== 'string') {
      throw new InputError(`\`connection\` must be one of ${ids.join(', ')}.`, [
        { path: CONNECTION_ARGUMENT, message: `must be one of ${ids.join(', ')}` },
      ]);
    }
    if (!ids.includes(chosen)) {
      // Not this tenant's (or filtered out): not found, whether or not another tenant holds the id.
      throw new NotFoundError(`No connection with id "${chosen}" here: one of ${ids.join(', ')}.`, {
        fields: [{ path: CONNECTION_ARGUMENT, message: `unknown connection id: one of ${ids.join(', ')}` }],
      });
    }
    return chosen;
  }
}

/** Whether two references name majors of one step (`x.y@1` and `x.y`). */
function sameStep(a: string, b: string): boolean {
  return (parseReference(a)?.id ?? a) === (parseReference(b)?.id ?? b);
}

/** The agent's `connection` choice apart from the step input; no step has an input field of that name. */
function splitArguments(args: unknown): { connection: unknown; input: unknown } {
  if (args === undefined || args === null) return { connection: undefined, input: {} };
  if (typeof args !== 'object' || Array.isArray(args)) return { connection: undefined, input: args };
  const { [CONNECTION_ARGUMENT]: connection, ...input } = args as Record<string, unknown>;
  return { connection, input };
}
