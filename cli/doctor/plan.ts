import { TRIGGERS_PLAN } from '../../src/triggers/entitlements.js';
import { planFromEnv } from '../trigger-context.js';
import type { DoctorCheck } from './doctor-check.js';

/** The plan the CLI assumes (TOOLSTEPS_PLAN, Enterprise when unset): triggers need Enterprise, steps work on all. */
export function checkPlan(env: NodeJS.ProcessEnv = process.env): DoctorCheck {
  const plan = planFromEnv(env);
  const triggers = plan.toLowerCase() === TRIGGERS_PLAN;
  return {
    name: 'plan',
    status: triggers ? 'ok' : 'warn',
    summary: `${plan}${env.TOOLSTEPS_PLAN?.trim() ? ' (TOOLSTEPS_PLAN)' : ' (default; set TOOLSTEPS_PLAN)'}: ${
      triggers ? 'steps and triggers' : 'steps only; triggers need the Enterprise plan'
    }`,
    details: [],
  };
}
