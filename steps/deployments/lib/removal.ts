import * as z from 'zod';

/**
 * The output of a step that deletes or removes one thing: what it was, that
 * it is gone, and whether a repeated request found it gone already (the
 * runtime's `gone_means_done`). Called from the step's `get output()`, so
 * it is built when first read, not when the catalogue is imported.
 */
export function removalOutput<Key extends string, Done extends string>(
  key: Key,
  keyText: string,
  done: Done,
  doneText: string,
) {
  const named = { [key]: z.string().describe(keyText) } as Record<Key, z.ZodString>;
  const gone = { [done]: z.literal(true).describe(doneText) } as Record<Done, z.ZodLiteral<true>>;
  return z.object({
    ...named,
    ...gone,
    already_done: z
      .boolean()
      .describe('True when a repeated request found it already gone (done, most likely, by the first).'),
  });
}

/**
 * What every deployments step that deletes or removes one thing by its input
 * `key` declares alike besides its output (`removalOutput`): destructive
 * access, and the write safety of deleting something unique: it is
 * idempotent, and a 404 on a replay means our first attempt landed
 * (`gone_means_done`), so the step answers as if it had removed it, with
 * `already_done` true.
 */
export function removalStep<Key extends string, Done extends string>(key: Key, done: Done) {
  return {
    access: 'destructive' as const,
    // Literal: only an idempotent step may declare gone_means_done, and the compiler checks that.
    idempotent: true as const,
    replay: {
      mode: 'gone_means_done' as const,
      alreadyDone: (input: Record<Key, string>) =>
        ({ [key]: input[key], [done]: true, already_done: true }) as Record<Key, string> &
          Record<Done, true> & { already_done: boolean },
    },
    variables: { [key]: `$.${key}`, already_done: '$.already_done' },
  };
}
