import * as z from 'zod';

/**
 * What the provider facts leave open about the deployments provider and
 * this emulator invents; each is a setting (`assume: { deployments: {...} }`,
 * `--assume deployments.<name>=<value>`).
 */
export const DeploymentsAssumptions = z
  .object({
    // provider-facts.md: newer "Sign in with Vercel" apps get expiring tokens with a
    // refresh token, but no lifetime is given.
    app_token_ttl_seconds: z
      .number()
      .int()
      .min(60)
      .max(365 * 24 * 3600)
      .default(3600)
      .describe('Lifetime of an app access token from /login/oauth/token, in seconds.'),
  })
  .strict();
export type DeploymentsAssumptions = z.output<typeof DeploymentsAssumptions>;
