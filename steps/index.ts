/**
 * `toolsteps/steps`: the catalogue of integrations, steps and triggers, and
 * `createRegistry()` that registers them all, typed so `invoke` checks each
 * step's input by its id.
 *
 * @module toolsteps/steps
 */
import { Registry, type StepId } from '../src/kit/index.js';
import { anzData } from './anz-data/integration.js';
import { anzDataSteps } from './anz-data/steps.js';
import { contactData } from './contact-data/integration.js';
import { contactDataSteps } from './contact-data/steps.js';
import { deployments } from './deployments/integration.js';
import { deploymentsSteps } from './deployments/steps.js';
import { deploymentsTriggers } from './deployments/triggers/triggers.js';
import { governance } from './governance/integration.js';
import { governanceSteps } from './governance/steps.js';
import { ticketing } from './ticketing/integration.js';
import { ticketingSteps } from './ticketing/steps.js';
import { ticketingTriggers } from './ticketing/triggers/triggers.js';

export {
  type IterateDeploymentsOptions,
  iterateDeployments,
} from './deployments/lib/iterate-deployments.js';

/** The one place that lists every integration and its steps. */
export const integrations = [ticketing, anzData, contactData, governance, deployments];
/** `'ticketing' | 'anz_data' | ...`: the id of every integration in the catalogue. */
export type IntegrationId = (typeof integrations)[number]['id'];
/** An id in the catalogue's namespace: a misspelt integration prefix is a type error. */
export type CatalogStepId = StepId<IntegrationId>;
/** Every step of the catalogue, typed one by one, so `createRegistry()` can type `invoke` by step id. */
export const steps = [
  ...ticketingSteps,
  ...anzDataSteps,
  ...contactDataSteps,
  ...governanceSteps,
  ...deploymentsSteps,
];

/** Events that start an agent: ticketing triggers and deployment webhooks. */
export const triggers = [...ticketingTriggers, ...deploymentsTriggers];

/** The union of every step's type, each with its literal id, input and output. */
export type CatalogStep = (typeof steps)[number];

/** The union of every trigger's type, each with its literal id. */
export type CatalogTrigger = (typeof triggers)[number];

/**
 * A registry of the whole catalogue, typed by what it registers: `invoke`,
 * `options` and `describe` by step id, and subscriptions by trigger id.
 */
export function createRegistry(): Registry<CatalogStep, CatalogTrigger> {
  return Registry.from({ integrations, steps, triggers });
}
