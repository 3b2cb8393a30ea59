import { defineDeploymentTrigger } from './lib/define-deployment-trigger.js';

export default defineDeploymentTrigger({
  id: 'deployments.deployment_started',
  eventType: 'deployment.created',
  title: 'Deployment started',
  description: 'Starts the agent when a new deployment is created and begins to build.',
  agentDescription:
    'Fires once per new deployment. Variables hold the deployment id, url, project id, name, target (null = preview) and state (the event type).',
  keywords: ['deploy', 'deployment created', 'build started', 'vercel'],
});
