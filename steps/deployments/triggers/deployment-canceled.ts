import { defineTrigger } from '../../../src/trigger.js';
import { deployments } from '../integration.js';
import {
  DeploymentSetup,
  deploymentEventFacts,
  deploymentEventSchema,
  deploymentSkipReason,
  deploymentVariables,
} from './lib/deployment-event.js';
import { provisionDeploymentWebhook, removeDeploymentWebhook } from './lib/deployment-webhook.js';
import { deploymentsSignature } from './lib/signature.js';

const EVENT_TYPE = 'deployment.canceled';

export default defineTrigger({
  id: 'deployments.deployment_canceled',
  integration: deployments,
  title: 'Deployment canceled',
  description: 'Starts the agent when a deployment is canceled before it finished.',
  agentDescription:
    'Fires once per canceled deployment. Variables hold the deployment id, url, project id, name, target and state.',
  keywords: ['deploy', 'deployment canceled', 'cancelled', 'stopped', 'vercel'],
  event: deploymentEventSchema(EVENT_TYPE),
  variables: deploymentVariables,
  setup: DeploymentSetup,
  verify: deploymentsSignature,
  parse: deploymentEventFacts,
  skipReason: deploymentSkipReason,
  provision: provisionDeploymentWebhook(EVENT_TYPE),
  remove: removeDeploymentWebhook,
});
