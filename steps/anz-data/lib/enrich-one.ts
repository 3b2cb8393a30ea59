import type * as z from 'zod';
import { builtOnce, readAnswer, type StepContext } from '../../../src/kit/index.js';
import { reportCharge } from './credits.js';
import { anzDataApi, anzRequest } from './operations.js';
import { CompanyAnswer, PersonAnswer, toCompany, toPerson } from './provider-records.js';

/** What the provider is asked for each kind of record, how it answers, and how its record becomes ours. */
const KINDS = builtOnce(
  () =>
    ({
      person: { operation: 'enrichPerson', answer: PersonAnswer(), toRecord: toPerson },
      company: { operation: 'enrichCompany', answer: CompanyAnswer(), toRecord: toCompany },
    }) as const,
);

type Kind = keyof ReturnType<typeof KINDS>;

/** A one-record enrichment's output, as `enrichmentOutput(kind, ...)` declares it. */
type Enrichment<K extends Kind> = { matched: boolean; credits_charged: number | null } & {
  [Name in K]: ReturnType<ReturnType<typeof KINDS>[K]['toRecord']> | null;
};

/** One kind's entry with its record type forgotten: the table is indexed by a kind known only at run time. */
interface AnyKind {
  operation: 'enrichPerson' | 'enrichCompany';
  answer: z.ZodType<Record<string, unknown> | null>;
  toRecord(raw: unknown): unknown;
}

/**
 * One paid lookup of a person or a company by its one given key: sends it,
 * reports what the provider charged, and answers the enrichment output. A
 * no-match (`match: false`, a null record, an empty body) is `matched:
 * false` with a null record, never an error, in both enrichment steps alike.
 */
export async function enrichOne<K extends Kind>(
  context: StepContext,
  kind: K,
  [key, value]: [string, string],
): Promise<Enrichment<K>> {
  const { operation, answer: schema, toRecord } = KINDS()[kind] as AnyKind;
  const response = await context.http.request(anzRequest(operation, { [key]: value }));
  const charged = reportCharge(response, context);
  const { method, path } = anzDataApi[operation];
  const answer = readAnswer(schema, response.body, `${method} ${path}`);
  const raw = answer?.match === false ? undefined : answer?.[kind];
  const record = raw ? toRecord(raw) : null;
  return { matched: record !== null, [kind]: record, credits_charged: charged } as Enrichment<K>;
}
