import * as z from 'zod';
import { CreditError, ProviderError, readAnswer, type StepContext } from '../../../src/kit/index.js';
import { recordOutcome } from './bulk-runner.js';
import type { LookupKind } from './lookup-kind.js';
import { type WireRecord, wireRecord } from './wire.js';

/**
 * One paid lookup (`POST /person`, `POST /company`), shaped as `lookupOutput`
 * with the item under `itemKey`. Not found is HTTP 200 with an error inside
 * the record and costs nothing: an empty result, not an error. Other
 * record-level refusals become typed errors.
 */
export async function lookupOne<Key extends string, Lookup, WireData, Item>(
  context: Pick<StepContext, 'http' | 'reportCredits'>,
  itemKey: Key,
  path: string,
  kind: LookupKind<Lookup, WireData, Item>,
  lookup: Lookup,
): Promise<{ matched: boolean; credits_charged: number | null } & Record<Key, Item | null>> {
  const where = `POST ${path}`;
  const response = await context.http.request({ method: 'POST', path, body: kind.toWire(lookup) });
  const record = readAnswer(wireRecord(kind.wire), response.body, where) as WireRecord<WireData>;
  const outcome = recordOutcome(record, kind.fromWire);
  if (outcome.credits_charged !== null) context.reportCredits(outcome.credits_charged);
  if (outcome.error) {
    const known = {
      status: response.status,
      sent: true,
      providerCode: outcome.error.code,
      context: { method: 'POST', path },
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
  // A computed key is typed as any string; the cast names the one field it is.
  return {
    matched: outcome.status === 'matched',
    [itemKey]: outcome.item,
    credits_charged: outcome.credits_charged,
  } as { matched: boolean; credits_charged: number | null } & Record<Key, Item | null>;
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
