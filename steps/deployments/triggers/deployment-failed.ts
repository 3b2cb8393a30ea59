import { defineDeploymentTrigger } from './lib/define-deployment-trigger.js';

export default defineDeploymentTrigger({
  id: 'deployments.deployment_failed',
  eventType: 'deployment.error',
  title: 'Deployment failed',
  description: 'Starts the agent when a deployment fails to build.',
  agentDescription:
    'Fires once per failed deployment. `error_message` holds the reason when the provider gives one (null otherwise); the other variables describe the deployment.',
  keywords: ['deploy', 'deployment error', 'build failed', 'failure', 'vercel'],
  extraVariables: { error_message: '$.payload.deployment.errorMessage' },
});
