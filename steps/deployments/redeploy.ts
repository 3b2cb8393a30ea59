import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { Deployment, DeploymentId, toDeployment } from './lib/deployment-schema.js';
import { recentDeploymentOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, fetchDeployment, requireDeploymentInScope } from './lib/project-scope.js';

export default defineStep({
  id: 'deployments.redeploy',
  integration: deployments,
  title: 'Redeploy',
  description: 'Build an existing deployment again: same project, source and settings.',
  agentDescription:
    'Starts a new deployment from an existing one (same project, commit or files, and settings), e.g. to pick up changed environment variables or retry a failed build. target production also makes it serve production when ready. Builds cost build minutes; a retry after an ambiguous failure is not sent again (it could build twice): check List Deployments first.',
  keywords: ['redeploy', 'rebuild', 'retry build', 'deploy again', 'rerun'],
  get input() {
    return z.strictObject({
      deployment_id: DeploymentId().describe('The deployment to build again.'),
      target: z
        .enum(['production', 'preview'])
        .optional()
        .describe("Where the new one goes; the original's target when absent."),
    });
  },
  get output() {
    return z.object({ deployment: Deployment().describe('The new deployment, QUEUED.') });
  },
  access: 'write',
  idempotent: false,
  options: { deployment_id: recentDeploymentOptions },
  variables: { deployment_id: '$.deployment.id', url: '$.deployment.url' },
  examples: [{ title: 'Build a deployment again', input: { deployment_id: 'dpl_from_create_deployment' } }],
  async run(input, { http, constraints }) {
    // The provider wants the name with the id; the read also checks the project is in scope.
    const original = await fetchDeployment(http, input.deployment_id);
    await requireDeploymentInScope(http, original, allowedProjects(constraints), 'Redeploying');
    const response = await http.request({
      method: 'POST',
      path: deploymentsPath('createDeployment'),
      body: {
        name: original.name,
        deploymentId: original.id,
        ...(input.target ? { target: input.target } : {}),
      },
    });
    return { deployment: toDeployment(response.body) };
  },
});
