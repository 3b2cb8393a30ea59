import * as z from 'zod';
import { builtOnce, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { DeploymentId } from './lib/deployment-schema.js';
import { recentDeploymentOptions } from './lib/deployments-options.js';
import { DomainName } from './lib/domain-schema.js';
import { deploymentsPath } from './lib/paths.js';
import { deploymentInScope } from './lib/project-request.js';
import { readAnswer } from './lib/provider-answer.js';

const Assigned = builtOnce(() =>
  z.object({
    uid: z.string(),
    alias: z.string(),
    oldDeploymentId: z.string().nullable().optional(),
  }),
);

export default defineStep({
  id: 'deployments.assign_alias',
  integration: deployments,
  title: 'Assign Alias',
  description: 'Point a hostname at a deployment, moving it from the one it served.',
  agentDescription:
    "Points a hostname (alias) at one deployment. If the hostname already points at another deployment, it moves: traffic goes to the new deployment at once, and previous_deployment_id says where it came from (assign it back to undo). Repeating it changes nothing more. Use Promote for a project's production domains; use this for one hostname.",
  keywords: ['assign alias', 'point domain', 'set alias', 'move hostname', 'custom url'],
  get input() {
    return z.strictObject({
      deployment_id: DeploymentId(),
      alias: DomainName().describe('Hostname to point at the deployment, e.g. "beta.acme.com".'),
    });
  },
  get output() {
    return z.object({
      uid: z.string().describe('Alias id.'),
      alias: z.string().describe('The hostname.'),
      deployment_id: z.string().describe('Deployment it now points at.'),
      previous_deployment_id: z
        .string()
        .nullable()
        .describe('Deployment it pointed at before, when it moved; null when new or unchanged.'),
    });
  },
  access: 'write',
  // It sets where the hostname points: sent twice, it points there once.
  idempotent: true,
  options: { deployment_id: recentDeploymentOptions },
  variables: { alias: '$.alias', deployment_id: '$.deployment_id' },
  examples: [
    {
      title: 'Point beta.acme.com at a new deployment',
      input: { deployment_id: 'dpl_from_create_deployment', alias: 'beta.acme.com' },
    },
  ],
  async run(input, context) {
    await deploymentInScope(context, input.deployment_id, 'Assigning an alias');
    const path = deploymentsPath('deploymentAliases', { id: input.deployment_id });
    const response = await context.http.request({
      method: 'POST',
      path,
      body: { alias: input.alias },
      idempotent: true,
    });
    const answer = readAnswer(Assigned(), response.body, `POST ${path}`, 'an assigned alias');
    return {
      uid: answer.uid,
      alias: answer.alias,
      deployment_id: input.deployment_id,
      previous_deployment_id: answer.oldDeploymentId ?? null,
    };
  },
});
