import { z } from 'zod';
import { CreditError, ProviderError } from '../../../src/errors.js';
import type { StepContext } from '../../../src/step.js';
import { recordOutcome } from './bulk-runner.js';
import { readWire, type WireRecord, wireRecord } from './wire.js';

/**
 * One paid lookup (`POST /person`, `POST /company`). Not found is HTTP 200
 * with an error inside the record and costs nothing: an empty result, not
 * an error. Other record-level refusals become typed errors.
 */
export async function lookupOne<WireData, Item>(
  context: Pick<StepContext, 'http' | 'reportCredits'>,
  options: {
    path: string;
    body: Record<string, string>;
    wireData: z.ZodType<WireData>;
    toItem(data: WireData): Item;
  },
): Promise<{ matched: boolean; item: Item | null; credits_charged: number | null }> {
  const where = `POST ${options.path}`;
  const response = await context.http.request({ method: 'POST', path: options.path, body: options.body });
  const record = readWire(wireRecord(options.wireData), response.body, where) as WireRecord<WireData>;
  const outcome = recordOutcome(record, options.toItem);
  if (outcome.credits_charged !== null) context.reportCredits(outcome.credits_charged);
  if (outcome.error) {
    const known = {
      status: response.status,
      sent: true,
      providerCode: outcome.error.code,
      context: { method: 'POST', path: options.path },
    };
    throw outcome.error.code === 'credits_exhausted'
      ? new CreditError(`${where} was refused: ${outcome.error.message}`, {
          ...known,
        })
      : new ProviderError(`${where} was refused: ${outcome.error.message}`, {
          ...known,
          code: 'provider_rejected',
        });
  }
  return {
    matched: outcome.status === 'matched',
    item: outcome.item,
    credits_charged: outcome.credits_charged,
  };
}

/**
 * The output of a single lookup step: `matched`, the item under `key` (null
 * when not matched), and the credits the provider reported charging.
 */
export function lookupOutput<Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  words: { found: string; item: string },
) {
  return z.object({
    matched: z.boolean().describe(`True when the provider found the ${words.found}.`),
    // A computed key is typed as any string; the cast names the one field it is.
    ...({ [key]: item.nullable().describe(words.item) } as Record<Key, z.ZodNullable<Item>>),
    credits_charged: z
      .number()
      .nullable()
      .describe('Credits the provider reported charging: 0 for no match; null when it did not say.'),
  });
}
