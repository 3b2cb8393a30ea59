/** What runs on a getter's value the first time it is read, before it is kept: a check that throws. */
export type FirstReadChecks<T> = { readonly [Key in keyof T]?: (value: T[Key]) => void };

/**
 * A copy of `source`'s own properties, except `omit`, in which each getter
 * runs once, when first read, and its value is kept for every read after;
 * other properties are copied as they are.
 *
 * Why: a step or trigger definition may give a schema as a getter
 * (`get input() { return z.object({...}) }`), so the schema is built when
 * something first needs it instead of when the catalogue is imported: zod
 * builds every schema node as an object with its own state, and building the
 * catalogue's was most of what `import('toolsteps/steps')` cost (issue 37).
 * Kept, so a schema read twice is the same schema (a registry, a cache keyed
 * by schema, `instanceof` and identity checks all see one).
 *
 * `checks[key]`, when given, runs on the built value before it is kept: a
 * check that a definition would have run on the value when it was defined.
 * What it throws is thrown to that read and to every read after, so a broken
 * definition never hands out an unchecked value.
 */
export function copyWithGettersRunOnce<T extends object, Omitted extends keyof T = never>(
  source: T,
  omit: readonly Omitted[] = [],
  checks: FirstReadChecks<T> = {},
): Omit<T, Omitted> {
  const copy = {} as Omit<T, Omitted>;
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(source))) {
    if ((omit as readonly PropertyKey[]).includes(key)) continue;
    const getter = descriptor.get;
    if (!getter) {
      Object.defineProperty(copy, key, descriptor);
      continue;
    }
    const check = checks[key as keyof T] as ((value: unknown) => void) | undefined;
    let state: { value: unknown } | { error: unknown } | undefined;
    Object.defineProperty(copy, key, {
      enumerable: descriptor.enumerable ?? true,
      configurable: true,
      get() {
        if (state === undefined) {
          try {
            const value = getter.call(source);
            check?.(value);
            state = { value };
          } catch (error) {
            state = { error };
          }
        }
        if ('error' in state) throw state.error;
        return state.value;
      },
    });
  }
  return copy;
}
