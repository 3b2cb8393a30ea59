import * as z from 'zod';
import type { AgentTools } from '../../agents/agent-tools.js';
import { type JsonSchema, objectJsonSchema } from '../../agents/json-schema.js';
import { resultSchemaOf, type ToolDescriptor } from '../../agents/tool-descriptor.js';
import { errorJsonOf, type ToolOutcome } from '../../agents/tool-outcome.js';
import { InputError } from '../../errors/index.js';
import { markOptions } from '../../options/described-input.js';
import { builtOnce } from '../../values/built-once.js';
import type { McpTool } from './mcp-tool.js';
import { type McpToolResult, mcpDataResult, mcpToolResult } from './mcp-tool-result.js';
import { ListOptionsInput, listOptions, listOptionsTool } from './options-tool.js';
import { parseArguments } from './tool-arguments.js';

/** Above this many tools, `auto` mode offers the catalogue: Cursor stops at 40 tools, Copilot at 128. */
export const FLAT_TOOL_LIMIT = 40;

const SearchInput = builtOnce(() =>
  z
    .object({
      query: z
        .string()
        .min(1)
        .describe('What the step should do, in a few words (e.g. "create ticket", "find email").'),
      limit: z.number().int().min(1).max(50).default(10).describe('Most results to return.'),
    })
    .strict(),
);

const DescribeInput = builtOnce(() =>
  z
    .object({
      step: z.string().min(1).describe('A step id from search_steps, e.g. "ticketing.create_ticket".'),
      connection: z
        .string()
        .optional()
        .describe("A connection id: the input schema then names that account's own fields (custom fields)."),
    })
    .strict(),
);

const RunInput = builtOnce(() =>
  z
    .object({
      step: z.string().min(1).describe('A step id from search_steps, e.g. "ticketing.create_ticket".'),
      input: z
        .record(z.string(), z.unknown())
        .default({})
        .describe('The step input, as describe_step shows it.'),
      connection: z
        .string()
        .optional()
        .describe('Which connected account to use, when describe_step lists several.'),
    })
    .strict(),
);

const StepSummary = builtOnce(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    access: z.enum(['read', 'write', 'destructive']),
    idempotent: z.boolean(),
    paid: z.boolean(),
    description: z.string(),
  }),
);

const SearchOutput = builtOnce(() => z.object({ steps: z.array(StepSummary()) }));

const DescribeOutput = builtOnce(() =>
  StepSummary().extend({
    credits: z.string().nullable().describe('How a paid step counts credits; null when free.'),
    connections: z.array(z.object({ id: z.string(), label: z.string().nullable() })),
    input: z.record(z.string(), z.unknown()).describe('JSON Schema of run_step `input`.'),
    options: z
      .record(
        z.string(),
        z.object({ dependsOn: z.array(z.string()), searchable: z.boolean(), fixed: z.boolean() }),
      )
      .describe('Fields whose choices list_options returns, and the fields those choices depend on.'),
    output: z.record(z.string(), z.unknown()).describe('JSON Schema of the result `output`.'),
  }),
);

const READ_ONLY_LOCAL = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The catalogue tools: find a step, read its contract, list a field's choices, run it. */
export function catalogueTools(tools: AgentTools): McpTool[] {
  const anyWrite = tools.tools.some((tool) => !tool.annotations.readOnlyHint);
  return [
    {
      name: 'search_steps',
      title: 'Search steps',
      description: `Find the steps that can do something, ranked (${tools.tools.length} available). Then call describe_step for one, then run_step.`,
      inputSchema: objectJsonSchema(SearchInput(), 'input', 'search_steps'),
      outputSchema: objectJsonSchema(SearchOutput(), 'output', 'search_steps'),
      annotations: { title: 'Search steps', ...READ_ONLY_LOCAL },
    },
    {
      name: 'describe_step',
      title: 'Describe a step',
      description:
        'The contract of one step: what it does, its input and output schemas, access, cost and connections.',
      inputSchema: objectJsonSchema(DescribeInput(), 'input', 'describe_step'),
      outputSchema: objectJsonSchema(DescribeOutput(), 'output', 'describe_step'),
      annotations: { title: 'Describe a step', ...READ_ONLY_LOCAL, openWorldHint: true },
    },
    listOptionsTool(),
    {
      name: 'run_step',
      title: 'Run a step',
      description:
        'Run one step with its input, validated exactly as describe_step shows; errors come back with the fields to fix.',
      inputSchema: objectJsonSchema(RunInput(), 'input', 'run_step'),
      outputSchema: resultSchemaOf({ type: 'object', additionalProperties: true }),
      annotations: {
        title: 'Run a step',
        readOnlyHint: !anyWrite,
        destructiveHint: tools.tools.some((tool) => tool.annotations.destructiveHint),
        idempotentHint: false,
        openWorldHint: true,
      },
    },
  ];
}

/** The offered tool of a step id, or an InputError saying why there is none. */
const offeredTool = (tools: AgentTools, stepId: string): ToolDescriptor => tools.requireStepTool(stepId);

function summary(tools: AgentTools, tool: ToolDescriptor): z.output<ReturnType<typeof StepSummary>> {
  const step = tools.registry.requireStep(tool.stepId);
  return {
    id: step.id,
    title: step.title,
    access: step.access,
    idempotent: step.idempotent,
    paid: Boolean(step.credits),
    description: tool.description,
  };
}

async function describe(
  tools: AgentTools,
  tool: ToolDescriptor,
  connection: string | undefined,
  signal: AbortSignal | undefined,
): Promise<z.output<ReturnType<typeof DescribeOutput>>> {
  const step = tools.registry.requireStep(tool.stepId);
  const described = await tools.describeInput(step.id, connection, signal);
  const { properties, required, ...rest } =
    connection === undefined ? markOptions(tool.inputSchema, step) : withoutSchemaUri(described.input);
  const { connection: _choice, ...inputProperties } = (properties ?? {}) as Record<string, unknown>;
  const inputRequired = ((required as string[] | undefined) ?? []).filter((name) => name !== 'connection');
  return {
    ...summary(tools, tool),
    credits: step.credits?.basis ?? null,
    connections: tool.connections.map((option) => ({ id: option.id, label: option.label ?? null })),
    input: { ...rest, properties: inputProperties, required: inputRequired },
    options: described.options,
    output: tool.outputSchema.properties
      ? ((tool.outputSchema.properties as Record<string, object>).output as Record<string, unknown>)
      : {},
  };
}

/** A schema as a tool takes it inline: without the `$schema` URI (see objectJsonSchema). */
function withoutSchemaUri(schema: JsonSchema): JsonSchema {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/** Answers a call to one of the catalogue tools; every failure is an error result. */
export async function callCatalogueTool(
  tools: AgentTools,
  name: string,
  args: unknown,
  signal: AbortSignal | undefined,
  /** Who calls, for the audit trail of a write (`run_step`). */
  caller?: string | undefined,
): Promise<McpToolResult> {
  try {
    if (name === 'search_steps') {
      const { query, limit } = parseArguments(SearchInput(), args, name);
      const found = tools.registry
        .search(query, 100)
        .map((hit) => tools.toolOfStep(hit.step.id))
        .filter((tool): tool is ToolDescriptor => Boolean(tool))
        .slice(0, limit);
      return mcpDataResult({ steps: found.map((tool) => summary(tools, tool)) });
    }
    if (name === 'describe_step') {
      const { step, connection } = parseArguments(DescribeInput(), args, name);
      return mcpDataResult(await describe(tools, offeredTool(tools, step), connection, signal));
    }
    if (name === 'list_options') {
      return mcpDataResult(await listOptions(tools, parseArguments(ListOptionsInput(), args, name), signal));
    }
    if (name === 'run_step') {
      const { step, input, connection } = parseArguments(RunInput(), args, name);
      const tool = offeredTool(tools, step);
      return mcpToolResult(await tools.runTool(tool.name, input, { connection, signal, caller }));
    }
    throw new InputError(
      `Unknown tool "${name}": use search_steps, describe_step, list_options or run_step.`,
      [{ path: 'name', message: 'unknown tool' }],
    );
  } catch (error) {
    const outcome: ToolOutcome = { ok: false, error: errorJsonOf(error) };
    return mcpToolResult(outcome);
  }
}
