import { defineTrigger } from '../../../../src/kit/index.js';
import { deployments } from '../../integration.js';
import {
  DeploymentSetup,
  deploymentEventExample,
  deploymentEventFacts,
  deploymentEventSchema,
  deploymentSkipReason,
  deploymentVariables,
} from './deployment-event.js';
import {
  deploymentsWebhookAdmin,
  provisionDeploymentWebhook,
  removeDeploymentWebhook,
} from './deployment-webhook.js';
import { deploymentsEventTime, deploymentsSignature } from './signature.js';

export interface DeploymentTriggerSpec<Id extends `deployments.${string}` = `deployments.${string}`> {
  id: Id;
  /** The provider's webhook event type this trigger subscribes to and accepts (provider facts, "Webhooks"). */
  eventType: string;
  title: string;
  description: string;
  agentDescription: string;
  keywords: readonly string[];
  /** Variables beyond the ones every deployment trigger maps. */
  extraVariables?: Readonly<Record<string, string>>;
}

/**
 * Every deployment trigger is the same webhook, envelope, signature, setup
 * and scoping; one event type and its words tell them apart.
 */
export function defineDeploymentTrigger<const Id extends `deployments.${string}`>(
  spec: DeploymentTriggerSpec<Id>,
) {
  const { eventType, extraVariables, id, ...words } = spec;
  return defineTrigger({
    id,
    ...words,
    integration: deployments,
    get event() {
      return deploymentEventSchema(eventType);
    },
    variables: { ...deploymentVariables, ...extraVariables },
    get setup() {
      return DeploymentSetup();
    },
    verify: deploymentsSignature,
    eventTime: deploymentsEventTime,
    parse: deploymentEventFacts,
    skipReason: deploymentSkipReason,
    example: deploymentEventExample(eventType),
    webhook: deploymentsWebhookAdmin,
    provision: provisionDeploymentWebhook(eventType),
    remove: removeDeploymentWebhook,
  });
}
