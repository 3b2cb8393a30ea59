import { defineDeploymentTrigger } from './lib/define-deployment-trigger.js';

export default defineDeploymentTrigger({
  id: 'deployments.deployment_completed',
  eventType: 'deployment.succeeded',
  title: 'Deployment completed',
  description: 'Starts the agent when a deployment finishes building and is ready.',
  agentDescription:
    'Fires once per deployment that built successfully. Variables hold the deployment id, url, project id, name, target and state.',
  keywords: ['deploy', 'deployment ready', 'succeeded', 'build finished', 'vercel'],
});
