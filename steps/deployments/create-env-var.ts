import * as z from 'zod';
import { builtOnce, defineStep, ProviderError } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { ProjectRef } from './lib/deployment-schema.js';
import { environmentOptions, projectOptions } from './lib/deployments-options.js';
import { EnvTargets, EnvType, OneEnvVar, toEnvVar, toProviderEnv } from './lib/env-schema.js';
import { checkEnvRules, EnvSettings } from './lib/env-var-settings.js';
import { projectRequest } from './lib/project-request.js';
import { readAnswer } from './lib/provider-answer.js';

/** `{created, failed}`: one variable sent, one created (or updated), or its failure. */
const Created = builtOnce(() =>
  z
    .object({
      created: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
      failed: z
        .array(
          z.object({
            error: z.object({ code: z.string().optional(), message: z.string().optional() }).loose(),
          }),
        )
        .optional(),
    })
    .loose(),
);

export default defineStep({
  id: 'deployments.create_env_var',
  integration: deployments,
  title: 'Create Env Var',
  description:
    'Set an environment variable on a project: created, or updated when one with that name already targets those environments.',
  agentDescription:
    'Sets a project environment variable (upsert): if a variable with this key already applies to one of the targets, it is overwritten, so retrying is safe. type encrypted (the default) is readable in the dashboard; sensitive can never be read back, by anyone, and cannot target development; plain is readable by anyone on the project. The value is never shown in the output unless plain. New values apply from the next deployment: redeploy for them to take effect.',
  keywords: ['set env', 'add env var', 'environment variable', 'secret', 'config', 'api key', 'upsert'],
  get input() {
    return z
      .strictObject({
        project: ProjectRef(),
        ...EnvSettings().shape,
        type: EnvType().default('encrypted'),
        targets: EnvTargets().default(['production', 'preview']),
      })
      .superRefine(checkEnvRules);
  },
  options: { project: projectOptions, targets: environmentOptions },
  get output() {
    return OneEnvVar();
  },
  access: 'write',
  // Upsert: the same variable twice leaves one variable with that value.
  idempotent: true,
  variables: { env_id: '$.env_var.id', key: '$.env_var.key' },
  examples: [
    {
      title: 'A sensitive API key for production',
      input: {
        project: 'shop',
        key: 'PAYMENTS_API_KEY',
        value: 'sk_test_sandbox',
        type: 'sensitive',
        targets: ['production'],
      },
    },
  ],
  async run(input, context) {
    const { project, ...fields } = input;
    const body = await projectRequest(context, project, 'Setting an environment variable', {
      method: 'POST',
      path: 'createProjectEnv',
      query: { upsert: 'true' },
      body: toProviderEnv(fields),
    });
    const answer = readAnswer(Created(), body, 'answer', 'a created environment variable');
    const created = Array.isArray(answer.created) ? answer.created[0] : answer.created;
    const failure = answer.failed?.[0]?.error;
    if (created === undefined || failure) {
      throw new ProviderError(
        `The provider did not set ${input.key}: ${failure?.message ?? 'no variable came back'}.`,
        {
          code: 'provider_rejected',
          sent: true,
          providerCode: failure?.code,
          providerMessage: failure?.message,
          context: { project, key: input.key },
        },
      );
    }
    return { env_var: toEnvVar(created, 'created') };
  },
});
