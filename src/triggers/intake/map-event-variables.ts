import { mapVariables } from '../../mapping/mapping.js';
import type { Subscription } from '../../model/subscription.js';
import type { AnyTrigger } from '../define-trigger.js';

/** Stage 8, map: the trigger's default variables with the subscription's own JSONPath mapping over them. */
export function mapEventVariables(
  trigger: AnyTrigger,
  subscription: Subscription,
  payload: unknown,
): Record<string, unknown> {
  return mapVariables(payload, { ...trigger.variables, ...subscription.mapping });
}
