import * as z from 'zod';
import { ScenarioChecks } from './scenario-checks.js';
import { ScenarioFault } from './scenario-fault.js';

export const ScenarioTask = z.strictObject({
  text: z.string().min(1).describe('What the agent is asked to do, as a person would ask it.'),
  input: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Structured input beside the text (ids, a record).'),
});

export const ScenarioTools = z.strictObject({
  steps: z
    .array(z.string().min(1))
    .optional()
    .describe('Step ids offered; every step of the connected integrations when absent.'),
  read_only: z.boolean().default(false).describe('Offer read steps only.'),
  mode: z
    .enum(['flat', 'catalog'])
    .default('flat')
    .describe(
      'flat: one tool a step; catalog: search_steps, describe_step, run_step (the MCP catalogue mode).',
    ),
  credit_budget: z
    .number()
    .min(0)
    .optional()
    .describe('Most credits one call may spend; the runtime refuses more before sending.'),
});

/**
 * An evaluation scenario: the twins' starting state, the connections, the
 * task, the tools, the faults and the checks. The one source of truth for
 * scenario files; `eval-scenario.schema.json` is generated from it (with
 * each twin's own seed schema plugged into `twins`).
 */
export const Scenario = z.strictObject({
  $schema: z.string().optional(),
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,79}$/)
    .describe('A short id: lowercase letters, digits and dashes.'),
  description: z.string().optional(),
  twins: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("Each twin's starting state, added to its default seed: what its seed endpoint takes."),
  connections: z
    .array(z.string().min(1))
    .min(1)
    .describe(
      'Integrations to connect to their twins (ticketing, deployments, contact_data, anz_data, governance).',
    ),
  task: ScenarioTask,
  tools: ScenarioTools.default({ read_only: false, mode: 'flat' }),
  faults: z.array(ScenarioFault).default([]),
  checks: ScenarioChecks.default({ state: [], trajectory: {}, cost: {} }),
  runs: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(1)
    .describe('How many times to run it: agents are not deterministic.'),
  pass_rate: z
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('Share of runs that must pass for the scenario to pass.'),
  limits: z
    .strictObject({
      max_calls: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(50)
        .describe('The harness stops the agent after this many tool calls.'),
      timeout_ms: z
        .number()
        .int()
        .min(100)
        .max(3_600_000)
        .default(60_000)
        .describe('The harness stops a run after this long.'),
    })
    .default({ max_calls: 50, timeout_ms: 60_000 }),
});
export type Scenario = z.infer<typeof Scenario>;
/** A scenario as written in a file, before defaults. */
export type ScenarioInput = z.input<typeof Scenario>;
