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

const EVENT_TYPE = 'deployment.succeeded';

export default defineTrigger({
  id: 'deployments.deployment_completed',
  integration: deployments,
  title: 'Deployment completed',
  description: 'Starts the agent when a deployment finishes building and is ready.',
  agentDescription:
    'Fires once per deployment that built successfully. Variables hold the deployment id, url, project id, name, target and state.',
  keywords: ['deploy', 'deployment ready', 'succeeded', 'build finished', 'vercel'],
  event: deploymentEventSchema(EVENT_TYPE),
  variables: deploymentVariables,
  setup: DeploymentSetup,
  verify: deploymentsSignature,
  parse: deploymentEventFacts,
  skipReason: deploymentSkipReason,
  provision: provisionDeploymentWebhook(EVENT_TYPE),
  remove: removeDeploymentWebhook,
});
