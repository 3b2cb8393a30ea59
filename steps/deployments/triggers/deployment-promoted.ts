import { defineDeploymentTrigger } from './lib/define-deployment-trigger.js';

export default defineDeploymentTrigger({
  id: 'deployments.deployment_promoted',
  eventType: 'deployment.promoted',
  title: 'Deployment promoted',
  description: "Starts the agent when a deployment is promoted to serve a project's production domains.",
  agentDescription:
    'Fires once per promotion of a deployment to production, by hand (Promote Deployment) or automatically; the provider does not send it for a rollback. Variables hold the deployment id, url, project id, name, target (production) and state (the event type).',
  keywords: ['deploy', 'deployment promoted', 'promote', 'go live', 'release', 'production', 'vercel'],
});
