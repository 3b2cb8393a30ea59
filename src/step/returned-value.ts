import type * as z from 'zod';

/**
 * What a definition's function may return for `Schema` to check: the
 * schema's input type, with any array or object read-only.
 *
 * It reads the input type through `Schema['_zod']` rather than `z.input`
 * (a conditional type): with the schema a `const` type parameter
 * (`defineStep`'s output, `defineTrigger`'s event), a literal written in a
 * returned object then keeps its type (`{ status: 'created' }` against
 * `z.literal('created')`) without `as const`. Arrays written in place are
 * then read-only tuples, which is why read-only is accepted: the runtime
 * parses what is returned into a new value anyway.
 */
export type ReturnedValue<Schema extends z.ZodType> = ReadonlyDeep<Schema['_zod']['input']>;

/** `T`, with every array and object read-only; `unknown`, dates, bytes, maps, sets and functions as they are. */
type ReadonlyDeep<T> = unknown extends T
  ? T
  : T extends
        | Date
        | Uint8Array
        | ReadonlyMap<unknown, unknown>
        | ReadonlySet<unknown>
        | ((...args: never[]) => unknown)
    ? T
    : { readonly [Key in keyof T]: ReadonlyDeep<T[Key]> };
