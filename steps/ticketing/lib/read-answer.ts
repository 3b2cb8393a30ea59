import * as z from 'zod';
import { type HttpClient, OutputError } from '../../../src/kit/index.js';

/**
 * A provider answer read through its schema, as untrusted input: a body that
 * does not fit is an OutputError naming the request and the fields, not a
 * crash further on.
 */
export function readAnswer<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
  where: string,
): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.slice(0, 10).map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
  throw new OutputError(`${where} answered with a body we cannot read.`, fields);
}

/** `GET path` and the record under `member` (`{"user": {...}}`), read through its schema. */
export async function getRecord<Schema extends z.ZodType>(
  http: HttpClient,
  path: string,
  member: string,
  schema: Schema,
): Promise<z.output<Schema>> {
  const response = await http.request({ method: 'GET', path });
  return readMember(response.body, member, schema, `GET ${path}`);
}

/** The record under `member` of an answer, read through its schema. */
export function readMember<Schema extends z.ZodType>(
  body: unknown,
  member: string,
  schema: Schema,
  where: string,
): z.output<Schema> {
  const record = readAnswer(z.object({ [member]: schema }), body, where) as Record<string, z.output<Schema>>;
  return record[member] as z.output<Schema>;
}
