import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { EnvId } from './lib/env-schema.js';
import { envVarOptions } from './lib/project-part-options.js';
import { projectRequest } from './lib/project-request.js';
import { removalOutput, removalStep } from './lib/removal.js';

export default defineStep({
  id: 'deployments.delete_env_var',
  integration: deployments,
  title: 'Delete Env Var',
  description: 'Remove an environment variable from a project, by its id.',
  agentDescription:
    'Removes one environment variable (by id, from List Env Vars) from every environment it applied to; the next deployment builds without it, and its value is gone permanently. Only use when the user asked. Safe to retry: a repeat that finds it already gone succeeds with already_done true.',
  keywords: ['delete env', 'remove env var', 'remove secret', 'unset'],
  get input() {
    return z.strictObject({ project: ProjectRef(), env_id: EnvId() });
  },
  options: { project: projectOptions, env_id: envVarOptions },
  get output() {
    return removalOutput(
      'env_id',
      'The removed variable.',
      'deleted',
      'Always true: the variable no longer exists.',
    );
  },
  ...removalStep('env_id', 'deleted'),
  examples: [{ title: 'Remove a variable', input: { project: 'shop', env_id: 'env_from_create_env_var' } }],
  async run(input, context) {
    // The answer repeats the variable, value included for some types: it is not read.
    await projectRequest(context, input.project, 'Deleting an environment variable', {
      method: 'DELETE',
      path: 'projectEnvVar',
      params: { envId: input.env_id },
    });
    return { env_id: input.env_id, deleted: true as const, already_done: false };
  },
});
