import * as z from 'zod';

/**
 * An input of optional lookup keys of which exactly one must be given: the
 * provider takes one lookup key per call (spec, A paths). The rule is checked
 * before sending, and the JSON Schema says it too (`oneOf` of `required`),
 * so forms and models see it without reading the description. Unknown keys
 * are refused, not dropped (as contact_data's lookups do): a typo such as
 * `emial` must not turn into a lookup by some other key, or into no key.
 */
export function lookupKeys<Shape extends Record<string, z.ZodType>>(shape: Shape, description: string) {
  const keys = Object.keys(shape);
  const list = keys.join(', ');
  return z
    .strictObject(shape)
    .superRefine((value, context) => {
      const given = keys.filter((key) => (value as Record<string, unknown>)[key] !== undefined);
      if (given.length === 1) return;
      context.addIssue({
        code: 'custom',
        path: given.length ? [given[1] as string] : [],
        message: given.length
          ? `give exactly one of ${list}; got ${given.join(' and ')}`
          : `give exactly one of ${list}`,
      });
    })
    .meta({ description, oneOf: keys.map((key) => ({ required: [key] })) });
}

/** The one lookup key of a validated input, as `[name, value]`. */
export function givenKey<Key extends string>(
  input: Partial<Record<Key, string | undefined>>,
  keys: readonly Key[],
): [Key, string] {
  for (const key of keys) {
    const value = input[key];
    if (value !== undefined) return [key, value];
  }
  // The input schema refuses an input without a key; reaching here is a bug.
  throw new Error(`none of ${keys.join(', ')} was given`);
}
