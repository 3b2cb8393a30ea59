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

const EVENT_TYPE = 'deployment.error';

export default defineTrigger({
  id: 'deployments.deployment_failed',
  integration: deployments,
  title: 'Deployment failed',
  description: 'Starts the agent when a deployment fails to build.',
  agentDescription:
    'Fires once per failed deployment. `error_message` holds the reason when the provider gives one (null otherwise); the other variables describe the deployment.',
  keywords: ['deploy', 'deployment error', 'build failed', 'failure', 'vercel'],
  event: deploymentEventSchema(EVENT_TYPE),
  variables: { ...deploymentVariables, error_message: '$.payload.deployment.errorMessage' },
  setup: DeploymentSetup,
  verify: deploymentsSignature,
  parse: deploymentEventFacts,
  skipReason: deploymentSkipReason,
  provision: provisionDeploymentWebhook(EVENT_TYPE),
  remove: removeDeploymentWebhook,
});
