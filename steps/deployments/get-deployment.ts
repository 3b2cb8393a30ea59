import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { Deployment, DeploymentId } from './lib/deployment-schema.js';
import { recentDeploymentOptions } from './lib/deployments-options.js';
import { deploymentInScope } from './lib/project-request.js';
import { fetchDeployment } from './lib/project-scope.js';

export default defineStep({
  id: 'deployments.get_deployment',
  integration: deployments,
  title: 'Get Deployment',
  description: 'Read one deployment: its state, URL, environment, branch, commit and build times.',
  agentDescription:
    'Reads one deployment by id (or hostname). Use it to check whether a deployment you created is READY, still BUILDING, or failed (ERROR, with error_message); poll it after Create Deployment rather than creating again. For the build output itself use Get Deployment Events. Read-only and safe to retry.',
  keywords: ['deployment', 'status', 'state', 'details', 'inspect', 'is it live', 'deploy status'],
  get input() {
    return z.strictObject({ deployment_id: DeploymentId() });
  },
  options: { deployment_id: recentDeploymentOptions },
  get output() {
    return z.object({ deployment: Deployment().describe('The deployment as it is now.') });
  },
  access: 'read',
  idempotent: true,
  variables: { deployment_id: '$.deployment.id', state: '$.deployment.state', url: '$.deployment.url' },
  examples: [{ title: 'A deployment just created', input: { deployment_id: 'dpl_from_create_deployment' } }],
  async run(input, context) {
    // With project scoping, the read that checks the project is the answer itself.
    const scoped = await deploymentInScope(context, input.deployment_id, 'Reading');
    return { deployment: scoped ?? (await fetchDeployment(context.http, input.deployment_id)) };
  },
});
