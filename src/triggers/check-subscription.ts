import { type FieldIssue, InputError } from '../errors.js';
import { Subscription, type SubscriptionInput } from './subscription.js';

/** A subscription about to be stored: bad values are an InputError naming the fields, never the secret. */
export function checkSubscription(value: SubscriptionInput): Subscription {
  const parsed = Subscription.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({
    path: issue.path.join('.') || '(subscription)',
    message: issue.message,
  }));
  throw new InputError(
    `Invalid subscription: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
    issues,
  );
}
