import type * as z from 'zod';
import { fieldIssues, listIssues } from '../errors/field-issues.js';
import { OutputError } from '../errors/index.js';

/**
 * At most this many failing fields ride on the error, and the message names
 * the first few: an answer wrong everywhere (a page of a thousand records in
 * a shape we do not know) must not make an error as large as itself.
 */
const MOST_FIELDS = 20;
const FIELDS_NAMED = 5;

/** Which part of an answer is read, and what it should have been. */
export interface AnswerPart {
  /** Where it sits in the answer, the prefix of each failing field's path: `answer` (the default), `deployments.3`. */
  at?: string;
  /** What it should have been, for the message: `a deployment`. */
  expected?: string;
}

/**
 * A provider answer read through its zod schema, as the untrusted input it
 * is. An answer that does not fit is an OutputError naming what answered
 * (`where`: the request, `GET /v1/notes/n_1`, or `The provider` for a reader
 * that does not know which request brought it) and each failing field, so
 * the step fails where the answer went wrong instead of further on.
 * @throws OutputError with the failing fields, prefixed by `part.at`.
 */
export function readAnswer<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
  where: string,
  part: AnswerPart = {},
): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = fieldIssues(parsed.error, part.at ?? 'answer');
  const what = part.expected
    ? `with something that is not ${part.expected}`
    : 'in a shape this step cannot read';
  const more = issues.length > FIELDS_NAMED ? ` (and ${issues.length - FIELDS_NAMED} more)` : '';
  throw new OutputError(
    `${where} answered ${what}: ${listIssues(issues.slice(0, FIELDS_NAMED))}${more}.`,
    issues.slice(0, MOST_FIELDS),
  );
}
