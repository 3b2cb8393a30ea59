import * as z from 'zod';

/**
 * What the spec and the provider facts leave open about the ANZ data
 * provider and this emulator invents; each is a setting
 * (`assume: { anz_data: {...} }`, `--assume anz_data.<name>=<value>`).
 */
export const AnzDataAssumptions = z
  .object({
    // integrations.md, Limits: lookups consume credits, but how an answer reports
    // what it charged is not shown, nor in the provider facts.
    credit_headers: z
      .boolean()
      .default(true)
      .describe(
        'Every answer says x-credits-charged and x-credits-remaining; false = the provider reports no credits (steps show credits_charged null).',
      ),
    // integrations.md, Limits 2: "Names of the rate limit response headers: not shown";
    // provider facts name only a 50 requests/s limit per key.
    rate_limit_headers: z
      .enum(['ratelimit', 'none'])
      .default('ratelimit')
      .describe(
        'ratelimit = RateLimit-Limit, -Remaining, -Reset (the IETF draft names); none = no quota headers, only 429 with Retry-After.',
      ),
  })
  .strict();
export type AnzDataAssumptions = z.output<typeof AnzDataAssumptions>;
