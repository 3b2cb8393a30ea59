import * as z from 'zod';

/**
 * The output of a step that deletes or removes one thing: what it was, that
 * it is gone, and whether a repeated request found it gone already (the
 * runtime's `gone_means_done`).
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
