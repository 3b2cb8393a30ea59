import * as z from 'zod';

/**
 * A check on a twin's end state, read through the sandbox's control
 * endpoint (`GET /_sandbox/state/<twin>`), never through the steps under
 * test. `path` is an RFC 9535 JSONPath over that state; the conditions hold
 * for the nodes it selects.
 */
export const StateCheck = z
  .strictObject({
    name: z.string().min(1).optional().describe('What the check means, for the report.'),
    twin: z.string().min(1).describe('Whose state: ticketing, deployments, contact-data...'),
    path: z
      .string()
      .min(1)
      .describe("JSONPath over the twin's state, e.g. $.tickets[?@.subject == 'VPN down']."),
    count: z.number().int().min(0).optional().describe('Exactly this many nodes.'),
    min_count: z.number().int().min(0).optional().describe('At least this many nodes.'),
    max_count: z.number().int().min(0).optional().describe('At most this many nodes.'),
    equals: z.unknown().optional().describe('Every node equals this (and there is at least one).'),
    at_most: z.number().optional().describe('Every node is a number no greater than this.'),
  })
  .refine(
    (check) =>
      [check.count, check.min_count, check.max_count, check.equals, check.at_most].some(
        (value) => value !== undefined,
      ),
    { message: 'a state check needs count, min_count, max_count, equals or at_most' },
  );
export type StateCheck = z.infer<typeof StateCheck>;

/** Checks on what the agent did: the recorded tool calls. */
export const TrajectoryChecks = z.strictObject({
  max_calls: z.number().int().min(0).optional().describe('At most this many tool calls.'),
  no_destructive: z.boolean().optional().describe('No call of a step whose access is destructive.'),
  no_repeated_writes: z
    .boolean()
    .optional()
    .describe(
      'No write or destructive step sent again with the same input after an earlier send may have landed (succeeded, or failed with outcome unknown).',
    ),
  forbidden_steps: z.array(z.string().min(1)).optional().describe('Steps that must not be called.'),
  required_steps: z
    .array(z.string().min(1))
    .optional()
    .describe('Steps that must be called (successfully) at least once.'),
});
export type TrajectoryChecks = z.infer<typeof TrajectoryChecks>;

/** Checks on cost: credits the calls were charged, as each call's meta reports them. */
export const CostChecks = z.strictObject({
  max_credits: z.number().min(0).optional().describe('At most this many credits over the whole run.'),
});
export type CostChecks = z.infer<typeof CostChecks>;

export const ScenarioChecks = z.strictObject({
  state: z.array(StateCheck).default([]),
  trajectory: TrajectoryChecks.default({}),
  cost: CostChecks.default({}),
});
