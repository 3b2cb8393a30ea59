import * as z from 'zod';

/**
 * A tenant's fair share of every worker's time and of the providers'
 * credits: at most `callsPerMinute` step runs in a UTC minute and
 * `creditsPerDay` credits (worst case reserved, unspent given back) in a UTC
 * day, counted across every worker sharing the coordinator. An absent
 * limit is no limit.
 */
export const TenantLimits = z
  .object({
    callsPerMinute: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Most step runs in one UTC minute, across every worker.'),
    creditsPerDay: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Most provider credits in one UTC day, across every worker.'),
  })
  .strict();
export type TenantLimits = z.infer<typeof TenantLimits>;

/** The stored form, read back: anything that is not a valid set of limits (a hand edit) is refused loudly, not read as none. */
export function parseStoredLimits(text: string | undefined | null): TenantLimits {
  if (text === undefined || text === null) return {};
  return TenantLimits.parse(JSON.parse(text));
}
