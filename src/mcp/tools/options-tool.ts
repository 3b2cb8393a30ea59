import * as z from 'zod';
import type { AgentTools } from '../../agents/agent-tools.js';
import { objectJsonSchema } from '../../agents/json-schema.js';
import { AnsweredOption } from '../../options/answered-option.js';
import { OPTIONS_KEYWORD } from '../../options/described-input.js';
import { builtOnce } from '../../values/built-once.js';
import type { McpTool } from './mcp-tool.js';

export const ListOptionsInput = builtOnce(() =>
  z
    .object({
      step: z
        .string()
        .min(1)
        .describe('A step id, e.g. "ticketing.create_ticket" (in flat mode, its tool name is taken too).'),
      field: z
        .string()
        .min(1)
        .describe(
          `An input field that has choices: one describe_step lists under \`options\`, or one a step tool marks with "${OPTIONS_KEYWORD}" (or an account field, e.g. a custom dropdown).`,
        ),
      query: z.string().max(200).optional().describe('Narrow the choices, e.g. part of a name.'),
      cursor: z.string().max(2000).optional().describe('next_cursor of an earlier answer, for more choices.'),
      input: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The input filled so far, for fields whose choices depend on another (their dependsOn).'),
      connection: z.string().optional().describe('Which connected account to ask, when there are several.'),
    })
    .strict(),
);

const ListOptionsOutput = builtOnce(() =>
  z.object({
    items: z.array(AnsweredOption()),
    next_cursor: z.string().optional(),
    truncated: z.boolean(),
  }),
);

/** How each mode tells the agent which fields have choices, and what to call with them. */
const WHERE_CHOICES_ARE = {
  catalog: 'describe_step lists the fields that have them under `options`. Use it before run_step',
  flat: `a step tool marks the fields that have them with "${OPTIONS_KEYWORD}" and says so in their description. Use it before calling the step's tool`,
} as const;

/**
 * `list_options`: the choices of a field, so an agent picks an existing
 * assignee or project instead of guessing an id. Offered in catalogue mode
 * and, when a step tool has a field with choices, in flat mode.
 */
export function listOptionsTool(mode: 'catalog' | 'flat' = 'catalog'): McpTool {
  return {
    name: 'list_options',
    title: 'List a field’s choices',
    description: `The values a step input field can take in the connected account (assignees, groups, projects, tags, custom field values, filter values), with labels; \`query\` narrows them; ${WHERE_CHOICES_ARE[mode]} instead of guessing ids.`,
    inputSchema: objectJsonSchema(ListOptionsInput(), 'input', 'list_options'),
    outputSchema: objectJsonSchema(ListOptionsOutput(), 'output', 'list_options'),
    annotations: {
      title: 'List a field’s choices',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
  };
}

/** Answers `list_options` through the agent tools (the same pipeline and cache as every surface). */
export async function listOptions(
  tools: AgentTools,
  args: z.output<ReturnType<typeof ListOptionsInput>>,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const { step, field, ...call } = args;
  return { ...(await tools.listOptions(step, field, { ...call, ...(signal ? { signal } : {}) })) };
}
