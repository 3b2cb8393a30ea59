import { ContactDataTwinSeed } from './contact-data/contact-data-twin.js';
import { DeploymentsTwinSeed } from './deployments/deployments-twin.js';
import { TicketingTwinSeed } from './ticketing/ticketing-twin.js';

/** Each twin's seed schema by its mount: what a scenario's `twins.<mount>` takes (eval-scenario.schema.json). */
export const TWIN_SEED_SCHEMAS = {
  ticketing: TicketingTwinSeed,
  deployments: DeploymentsTwinSeed,
  'contact-data': ContactDataTwinSeed,
} as const;
