import { defineDeploymentTrigger } from './lib/define-deployment-trigger.js';

export default defineDeploymentTrigger({
  id: 'deployments.deployment_canceled',
  eventType: 'deployment.canceled',
  title: 'Deployment canceled',
  description: 'Starts the agent when a deployment is canceled before it finished.',
  agentDescription:
    'Fires once per canceled deployment. Variables hold the deployment id, url, project id, name, target and state.',
  keywords: ['deploy', 'deployment canceled', 'cancelled', 'stopped', 'vercel'],
});
