import * as z from 'zod';
import { creditsChargedDescription } from './credits.js';

/**
 * The output of a one-record enrichment (a person, a company): whether the
 * provider knew the key, the record under `key` (null when it did not), and
 * the credits it charged. A lookup that finds nothing is this answer, not an
 * error, so an agent branches on `matched`.
 */
export function enrichmentOutput<Key extends string, Record extends z.ZodType>(
  key: Key,
  record: Record,
  recordText: string,
) {
  // A computed key is typed as any string; the cast names the one field it is.
  const found = { [key]: record.nullable().describe(recordText) } as { [K in Key]: z.ZodNullable<Record> };
  return z.object({
    matched: z.boolean().describe(`False when the provider knows no such ${key}; then ${key} is null.`),
    ...found,
    credits_charged: z.number().nullable().describe(creditsChargedDescription),
  });
}
