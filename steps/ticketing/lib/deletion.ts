import * as z from 'zod';

/**
 * `{deleted, <key>, already_done}`: the output of a ticketing step that
 * deletes one record by its numeric input `key`. Called from the step's
 * `get output()`, so it is built when first read, not at import.
 */
export function deletionOutput<Key extends string>(key: Key, keyText: string, doneText: string) {
  const named = { [key]: z.number().describe(keyText) } as Record<Key, z.ZodNumber>;
  return z.object({
    deleted: z.literal(true).describe('Always true: failures are errors.'),
    ...named,
    already_done: z.boolean().describe(doneText),
  });
}

/**
 * What a ticketing step that deletes one record by its numeric input `key`
 * declares alike besides its output (`deletionOutput`): destructive access,
 * and the write safety of deleting something unique: idempotent, and a 404
 * on a replay means our first attempt landed (`gone_means_done`), so the
 * step answers `already_done: true`.
 */
export function deletionStep<Key extends string>(key: Key) {
  /** What a replay answered 404 returns: the first attempt deleted it. */
  const alreadyDone = (input: Record<Key, number>) =>
    ({ deleted: true, [key]: input[key], already_done: true }) as {
      deleted: true;
      already_done: boolean;
    } & Record<Key, number>;
  // idempotent is a literal: only an idempotent step may declare gone_means_done, and the compiler checks that.
  return {
    access: 'destructive' as const,
    idempotent: true as const,
    replay: { mode: 'gone_means_done' as const, alreadyDone },
    variables: { [key]: `$.${key}` },
  };
}
