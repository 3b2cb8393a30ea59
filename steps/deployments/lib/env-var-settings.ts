import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import {
  EnvComment,
  EnvGitBranch,
  EnvKey,
  EnvTargets,
  EnvType,
  EnvValue,
  envRuleIssues,
} from './env-schema.js';

/**
 * What an environment variable can be set to: one list for Create Env Var,
 * which needs key and value and defaults type and targets, and Update Env
 * Var, which takes any of them (only those given change). A setting the
 * provider adds goes here once, for both.
 */
export const EnvSettings = builtOnce(() =>
  z.object({
    key: EnvKey(),
    value: EnvValue(),
    type: EnvType(),
    targets: EnvTargets(),
    git_branch: EnvGitBranch().optional(),
    comment: EnvComment().optional(),
  }),
);

/** The provider's rules between settings (`envRuleIssues`), as input issues: refused before anything is sent. */
export function checkEnvRules(
  settings: Partial<z.output<ReturnType<typeof EnvSettings>>>,
  context: z.RefinementCtx,
): void {
  for (const issue of envRuleIssues(settings)) context.addIssue({ code: 'custom', ...issue });
}
