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

const EVENT_TYPE = 'deployment.created';

export default defineTrigger({
  id: 'deployments.deployment_started',
  integration: deployments,
  title: 'Deployment started',
  description: 'Starts the agent when a new deployment is created and begins to build.',
  agentDescription:
    'Fires once per new deployment. Variables hold the deployment id, url, project id, name, target (null = preview) and state (the event type).',
  keywords: ['deploy', 'deployment created', 'build started', 'vercel'],
  event: deploymentEventSchema(EVENT_TYPE),
  variables: deploymentVariables,
  setup: DeploymentSetup,
  verify: deploymentsSignature,
  parse: deploymentEventFacts,
  skipReason: deploymentSkipReason,
  provision: provisionDeploymentWebhook(EVENT_TYPE),
  remove: removeDeploymentWebhook,
});
