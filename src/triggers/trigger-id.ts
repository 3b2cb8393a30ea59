import type { StepId } from '../step/define-step.js';

/** `<integration>.<event_name>`: a trigger id is shaped, and checked, as a step id is. */
export type TriggerId<IntegrationId extends string = string> = StepId<IntegrationId>;
