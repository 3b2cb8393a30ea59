import * as z from 'zod';
import { type HttpClient, readAnswer } from '../../../src/kit/index.js';

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
