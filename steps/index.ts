import { Registry } from '../src/registry.js';
import { governance } from './governance/index.js';
import { governanceSteps } from './governance/steps.js';
import { ticketing } from './ticketing/index.js';
import { ticketingSteps } from './ticketing/steps.js';

/** The one place that lists every integration and its steps. */
export const integrations = [ticketing, governance];
export const steps = [...ticketingSteps, ...governanceSteps];

export function createRegistry(): Registry {
  const registry = new Registry();
  for (const integration of integrations) registry.registerIntegration(integration);
  for (const step of steps) registry.registerStep(step);
  return registry;
}
