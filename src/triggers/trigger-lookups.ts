import type { AnyTrigger } from './define-trigger.js';

/**
 * The trigger among `Triggers` whose id is `Id` (distributes over the union,
 * like `StepWithId`).
 */
export type TriggerWithId<Triggers extends AnyTrigger, Id extends string> = Triggers extends AnyTrigger
  ? Id extends Triggers['id']
    ? Triggers
    : never
  : never;
