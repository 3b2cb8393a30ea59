/**
 * A function that builds its value on its first call and returns that same
 * value to every call after: `export const Ticket = builtOnce(() => z.object({...}))`,
 * read as `Ticket()`.
 *
 * Why: a zod schema built at a module's top level is built when the module
 * is imported, whether or not anything uses it; the schemas the catalogue's
 * steps share were a large part of what `import('toolsteps/steps')` cost
 * (issue 37). Built on first use instead, by the getter of the step that
 * needs it (a step's `get input()`), and kept, so every caller gets one and
 * the same schema (identity, `instanceof` and caches keyed by schema all see
 * one). What `build` throws is thrown to that call; the next call builds again.
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
