import * as z from 'zod';

/**
 * When a fault is armed: before the agent's N-th tool call (1-based, any
 * step), before the N-th call of one step, or, with neither, before the
 * first call. Arming is a request to the twins' control endpoint; what it
 * hits is then the next matching provider request(s).
 */
export const FaultMoment = z
  .strictObject({
    call: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Before the agent's N-th tool call, counting every step."),
    step: z
      .string()
      .min(1)
      .optional()
      .describe('Before a call of this step (id, e.g. ticketing.create_ticket)...'),
    occurrence: z.number().int().min(1).default(1).describe('...the N-th call of it (default the first).'),
  })
  .refine((moment) => !(moment.call !== undefined && moment.step !== undefined), {
    message: 'give call or step, not both',
  });

const Targeting = {
  twin: z
    .string()
    .min(1)
    .describe('The twin (sandbox mount) the fault hits: ticketing, deployments, contact-data...'),
  at: FaultMoment.optional().describe('When it is armed; before the first call when absent.'),
  method: z.string().min(1).optional().describe('Only requests of this HTTP method (POST, PUT...).'),
  path_includes: z
    .string()
    .min(1)
    .optional()
    .describe('Only requests whose path below the mount contains this.'),
  count: z.number().int().min(1).max(1000).default(1).describe('How many matching requests it hits.'),
};

/** One fault a scenario injects; every kind maps onto a switch the sandbox already has. */
export const ScenarioFault = z.discriminatedUnion('kind', [
  z
    .strictObject({
      kind: z.literal('rate_limit'),
      ...Targeting,
      retry_after_s: z
        .number()
        .int()
        .min(0)
        .max(3600)
        .default(1)
        .describe('The Retry-After the 429 carries.'),
    })
    .describe('429 Too Many Requests with Retry-After.'),
  z
    .strictObject({
      kind: z.literal('server_error'),
      ...Targeting,
      status: z.number().int().min(500).max(599).default(503),
      after_write: z
        .boolean()
        .default(false)
        .describe(
          'The twin acts first (creates, charges), then the error is answered: a gateway timing out.',
        ),
    })
    .describe('A 5xx answer.'),
  z
    .strictObject({
      kind: z.literal('slow'),
      ...Targeting,
      ms: z.number().int().min(1).max(600_000).describe('How long the answer is held back.'),
    })
    .describe('A slow answer.'),
  z
    .strictObject({ kind: z.literal('timeout'), ...Targeting })
    .describe(
      'The twin acts, then the connection drops before the answer: the client cannot tell whether its write landed.',
    ),
  z
    .strictObject({ kind: z.literal('expired_token'), ...Targeting })
    .describe('Every access token issued so far expires (refresh tokens stay good).'),
  z
    .strictObject({ kind: z.literal('revoked_grant'), ...Targeting })
    .describe('The grant is revoked (access and refresh tokens): only a new sign-in helps.'),
  z
    .strictObject({ kind: z.literal('duplicate_webhook'), ...Targeting })
    .describe("The twin's next webhook deliveries are each sent twice."),
]);
export type ScenarioFault = z.infer<typeof ScenarioFault>;
