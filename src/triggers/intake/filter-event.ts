import type { Subscription } from '../../model/subscription.js';
import type { AnyTrigger } from '../define-trigger.js';

/**
 * Stage 7, filter: why this verified event is not one the subscription asked
 * for, or undefined when it is. An inactive subscription starts nothing;
 * then the trigger's own rules (setup options, project scoping through the
 * constraints) decide.
 */
export function filterEvent(
  trigger: AnyTrigger,
  subscription: Subscription,
  payload: unknown,
): string | undefined {
  if (!subscription.active) return 'the subscription is inactive';
  if (!trigger.skipReason) return undefined;
  const setup = trigger.setup.parse(subscription.setup);
  return trigger.skipReason(payload, setup, subscription.constraints);
}
