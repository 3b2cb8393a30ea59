import { PlanError } from '../errors/plan-error.js';

/**
 * What the organisation's plan on the agent platform allows, as the
 * embedder knows it. The spec's rule: triggers need the Enterprise plan;
 * tool steps work on every plan.
 */
export interface Entitlements {
  plan: string;
}

/** The plan whose organisations may use triggers; compared without case or surrounding spaces. */
export const TRIGGERS_PLAN = 'enterprise';

/** Refuses, before anything is stored or provisioned, a plan without triggers. */
export function requireTriggerPlan(entitlements: Entitlements): void {
  if (entitlements.plan.trim().toLowerCase() === TRIGGERS_PLAN) return;
  throw new PlanError(
    `Triggers need the Enterprise plan; this organisation is on "${entitlements.plan}". Nothing was created. Tool steps work on every plan.`,
    { hint: 'Upgrade the organisation to Enterprise to subscribe agents to events.' },
  );
}
