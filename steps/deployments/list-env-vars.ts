import * as z from 'zod';
import { builtOnce, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { projectOptions } from './lib/deployments-options.js';
import { EnvGitBranch, EnvVar, toEnvVar } from './lib/env-schema.js';
import { projectRequest } from './lib/project-request.js';
import { readAnswer } from './lib/provider-answer.js';

const EnvList = builtOnce(() => z.object({ envs: z.array(z.unknown()) }).loose());

export default defineStep({
  id: 'deployments.list_env_vars',
  integration: deployments,
  title: 'List Env Vars',
  description: "List a project's environment variables: names, types and targets; values of plain ones only.",
  agentDescription:
    "Lists a project's environment variables with their ids, types and the environments they apply to. Values are shown only for type plain; encrypted, sensitive and secret values are never returned (value null, value_hidden true), so do not promise the user a secret's value. Use the id with Update Env Var or Delete Env Var. Read-only and safe to retry.",
  keywords: ['env', 'environment variables', 'env vars', 'config', 'settings', 'secrets list'],
  get input() {
    return z.strictObject({
      project: ProjectRef(),
      git_branch: EnvGitBranch().optional().describe('Only variables that apply to this preview branch.'),
    });
  },
  options: { project: projectOptions },
  get output() {
    return z.object({ env_vars: z.array(EnvVar()).describe('The variables, values withheld unless plain.') });
  },
  access: 'read',
  idempotent: true,
  // Names and ids only: no value is ever mapped into a variable.
  variables: { keys: '$.env_vars[*].key', env_ids: '$.env_vars[*].id' },
  examples: [{ title: "The shop's variables", input: { project: 'shop' } }],
  async run(input, context) {
    const body = await projectRequest(context, input.project, 'Listing environment variables', {
      method: 'GET',
      path: 'projectEnv',
      // Never `decrypt`: the values of encrypted variables must not come back.
      query: { gitBranch: input.git_branch },
    });
    const list = readAnswer(EnvList(), body, 'answer', 'a list of environment variables');
    return { env_vars: list.envs.map((raw, index) => toEnvVar(raw, `envs.${index}`)) };
  },
});
