import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';

/**
 * The provider's answers, in its own casing. Per record, single or in bulk:
 * `data` when found, or HTTP 200 with `error` inside the record when not
 * (no charge), and `creditsCharged`, what this record cost. The sandbox
 * reports exactly what it took from the key's balance; when an answer
 * omits it, the charge is unknown (null), never guessed.
 */
export const WireRecordError = builtOnce(() =>
  z.object({ code: z.string(), message: z.string().optional() }).loose(),
);

export interface WireRecord<Data> {
  index?: number | undefined;
  data?: Data | null | undefined;
  error?: z.output<ReturnType<typeof WireRecordError>> | null | undefined;
  creditsCharged?: number | undefined;
}

/**
 * One wire schema per data schema, built on first use: the steps read every
 * answer (each batch of a bulk run) through it, and building a zod schema
 * costs more than using one.
 */
function oncePerSchema<Build extends (schema: z.ZodType) => z.ZodType>(build: Build): Build {
  const built = new WeakMap<z.ZodType, z.ZodType>();
  return ((schema: z.ZodType) => {
    let wire = built.get(schema);
    if (!wire) {
      wire = build(schema);
      built.set(schema, wire);
    }
    return wire;
  }) as Build;
}

export const wireRecord = oncePerSchema(<Data extends z.ZodType>(data: Data) =>
  z
    .object({
      index: z.number().int().nonnegative().optional(),
      data: data.nullish(),
      error: WireRecordError().nullish(),
      creditsCharged: z.number().nonnegative().optional(),
    })
    .loose(),
);

/** `POST /person/bulk`, `/company/bulk`: `{results: [record, ...], creditsCharged}`. */
export const wireBulk = oncePerSchema(<Data extends z.ZodType>(data: Data) =>
  z.object({ results: z.array(wireRecord(data)), creditsCharged: z.number().optional() }).loose(),
);

/** `POST /person/search`, `/company/search`: `{results, total, creditsCharged}`. */
export const wireSearch = oncePerSchema(<Item extends z.ZodType>(item: Item) =>
  z
    .object({
      results: z.array(item),
      total: z.number().int().nonnegative().optional(),
      creditsCharged: z.number().nonnegative().optional(),
    })
    .loose(),
);

/** A record's id, as a string whether the provider sends a string or a number (person and company alike). */
export const WireId = builtOnce(() => z.union([z.string(), z.number()]).transform(String));

export const WireLocation = builtOnce(() =>
  z
    .object({ city: z.string().nullish(), state: z.string().nullish(), country: z.string().nullish() })
    .loose(),
);

/** Record-level error codes that mean "no such record" (free) and "out of credits". */
export const NOT_FOUND_CODES = new Set(['not_found', 'NOT_FOUND', 'EMPTY_DATA']);
export const NO_CREDIT_CODES = new Set(['insufficient_credits', 'OUT_OF_CREDITS']);
