import * as z from 'zod';
import type { StepContext } from '../../../src/kit/index.js';
import { connectionProject } from './connection-project.js';

/** What one governance removal's output says, in its own words. */
export interface ProjectRemovalTexts {
  /** What `already_done` means for this removal: who else could have done it in the same moment. */
  alreadyDoneMeans: string;
  /** The removed thing, echoed from the input. */
  key: string;
  /** The project it was removed from. */
  project: string;
}

/**
 * The output of a governance step that takes one thing out of the
 * connection's project: the always-true flag `done` (`deleted`, `removed`),
 * `already_done`, the removed `key` (`invite_code`, `user_id`) and the
 * project. Called from the step's `get output()`, so it is built when first
 * read, not at import.
 */
export function projectRemovalOutput<Done extends string, Key extends string>(
  done: Done,
  key: Key,
  texts: ProjectRemovalTexts,
) {
  // Computed keys are typed as any string; the casts name the one field each is.
  const flag = { [done]: z.literal(true).describe('Always true: failures are errors.') } as Record<
    Done,
    z.ZodLiteral<true>
  >;
  const named = { [key]: z.string().describe(texts.key) } as Record<Key, z.ZodString>;
  return z.object({
    ...flag,
    already_done: z.boolean().describe(texts.alreadyDoneMeans),
    ...named,
    project_id: z.string().describe(texts.project),
  });
}

/**
 * What the governance steps that take one thing out of the connection's
 * project (a pending invite, a member) declare alike besides their output
 * (`projectRemovalOutput`): the write safety of removing something unique.
 * A replay can only find that same thing gone, so the step is idempotent,
 * and a 404 that answers a replay means our first attempt did the work
 * (`gone_means_done`): the step answers as if it had removed it, with
 * `already_done` true. Access stays each step's own call (an invite can be
 * sent again; a membership cannot be restored without a new invite).
 */
export function projectRemoval<Done extends string, Key extends string>(done: Done, key: Key) {
  return {
    // Literal: only an idempotent step may declare gone_means_done, and the compiler checks that.
    idempotent: true as const,
    replay: {
      mode: 'gone_means_done' as const,
      alreadyDone: (input: Record<Key, string>, context: Pick<StepContext, 'connection'>) =>
        ({
          [done]: true,
          already_done: true,
          [key]: input[key],
          project_id: connectionProject(context),
        }) as Record<Done, true> & { already_done: boolean; project_id: string } & Record<Key, string>,
    },
    variables: { [key]: `$.${key}`, already_done: '$.already_done' },
  };
}
