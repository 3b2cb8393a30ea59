/**
 * `Id` when it names one of `Known`, or when it is a wide `string` (an id
 * known only at run time); otherwise the ids of `Known` in the same
 * integration (all of them when none are), so the compiler's message on a
 * misspelt id lists what it could have been.
 */
export type KnownId<Id extends string, Known extends string> = string extends Id
  ? Id
  : [Extract<Known, Id>] extends [never]
    ? IdsLike<Id, Known>
    : Id;

/** The ids of `Known` with `Id`'s integration prefix, or all of `Known` when none has it. */
type IdsLike<Id extends string, Known extends string> = Id extends `${infer Prefix}.${string}`
  ? [Extract<Known, `${Prefix}.${string}`>] extends [never]
    ? Known
    : Extract<Known, `${Prefix}.${string}`>
  : Known;
