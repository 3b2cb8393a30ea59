import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { environmentOptions, projectOptions } from './lib/deployments-options.js';
import { EnvId, OneEnvVar, toEnvVar, toProviderEnv } from './lib/env-schema.js';
import { checkEnvRules, EnvSettings } from './lib/env-var-settings.js';
import { envVarOptions } from './lib/project-part-options.js';
import { projectRequest } from './lib/project-request.js';

export default defineStep({
  id: 'deployments.update_env_var',
  integration: deployments,
  title: 'Update Env Var',
  description: 'Change an environment variable by its id: value, name, type, targets, branch or comment.',
  agentDescription:
    'Changes one environment variable, found by its id (from List Env Vars): only the fields given change. A sensitive variable stays write-only: its new value is never shown. Changes apply from the next deployment. Safe to retry: the same change twice leaves the variable the same.',
  keywords: ['update env', 'change env var', 'rotate secret', 'edit environment variable'],
  get input() {
    return z
      .strictObject({ project: ProjectRef(), env_id: EnvId(), ...EnvSettings().partial().shape })
      .superRefine((value, context) => {
        const { project, env_id, ...changes } = value;
        if (Object.values(changes).every((change) => change === undefined)) {
          context.addIssue({ code: 'custom', path: ['value'], message: 'give at least one field to change' });
        }
        checkEnvRules(value, context);
      });
  },
  options: { project: projectOptions, env_id: envVarOptions, targets: environmentOptions },
  get output() {
    return OneEnvVar();
  },
  access: 'write',
  idempotent: true,
  variables: { env_id: '$.env_var.id', key: '$.env_var.key' },
  examples: [
    {
      title: 'Rotate an API key',
      input: { project: 'shop', env_id: 'env_from_create_env_var', value: 'sk_test_rotated' },
    },
  ],
  async run(input, context) {
    const { project, env_id, ...fields } = input;
    const body = await projectRequest(context, project, 'Updating an environment variable', {
      method: 'PATCH',
      path: 'projectEnvVar',
      params: { envId: env_id },
      body: toProviderEnv(fields),
    });
    return { env_var: toEnvVar(body) };
  },
});
