import type * as z from 'zod';

/**
 * Fastify's validator compiler for zod schemas (`app.setValidatorCompiler`):
 * a route's `schema.body`, `querystring` or `params` is the zod schema of
 * the route table, parsed as is, so the one source of truth for a shape is
 * the schema that also makes the OpenAPI document. A failure is the
 * ZodError itself; Fastify marks it `FST_ERR_VALIDATION`, with
 * `validationContext` saying which part failed, for the server to answer.
 */
export function zodValidatorCompiler({ schema }: { schema: unknown }) {
  const zodSchema = schema as z.ZodType;
  return (data: unknown): { value: unknown } | { error: Error } => {
    const result = zodSchema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };
}
