import { randomUUID } from 'node:crypto';
import type { Clock } from '../model/clock.js';
import { type Subscription, subscriptionUrl } from '../model/subscription.js';
import { withProviderSession } from '../runtime/provider-session.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AnyTrigger, TestDeliveryResult, WebhookContext, WebhookStatus } from './define-trigger.js';
import { mapEventVariables } from './intake/map-event-variables.js';
import { payloadAtMajor } from './trigger-at-major.js';

/** Why the provider side of a subscription cannot be read or tested, or undefined when it can. */
function notAtProvider(trigger: AnyTrigger, subscription: Subscription): string | undefined {
  if (subscription.manual)
    return 'made by hand in the provider settings (--manual): nothing recorded to read there';
  if (!Object.keys(subscription.provider).length) {
    return subscription.state === 'provisioning'
      ? 'nothing recorded yet (a create whose answer was lost is found by its URL): finish with triggers activate, or remove'
      : 'nothing was created at the provider yet';
  }
  return trigger.webhook ? undefined : `${trigger.id} declares no way to read its webhook`;
}

async function withWebhook<T>(
  runtime: Runtime,
  trigger: AnyTrigger,
  subscription: Subscription,
  work: (context: WebhookContext) => Promise<T>,
  caller?: string,
): Promise<T> {
  return withProviderSession(runtime, trigger, { connection: subscription.connection, caller }, (context) =>
    work({
      http: context.http,
      connection: context.connection,
      log: context.log,
      subscription: {
        id: subscription.id,
        url: subscriptionUrl(subscription),
        provider: subscription.provider,
      },
    }),
  );
}

/** The provider's view of the subscription's webhook (`GET` of it), or why there is none to read. */
export async function readWebhookStatus(
  runtime: Runtime,
  trigger: AnyTrigger,
  subscription: Subscription,
  caller?: string,
): Promise<WebhookStatus | { unavailable: string }> {
  const reason = notAtProvider(trigger, subscription);
  if (reason || !trigger.webhook) return { unavailable: reason ?? 'no webhook' };
  const admin = trigger.webhook;
  return withWebhook(runtime, trigger, subscription, (context) => admin.status(context), caller);
}

export interface SubscriptionTest {
  /** The event id of the example sent: new on every test, so dedupe never swallows it. */
  eventId: string;
  payload: unknown;
  /** What the subscription maps from it: the trigger's defaults and its own mapping. */
  variables: Record<string, unknown>;
  /** Why this subscription's setup or constraints would skip such an event, or null. */
  skipped: string | null;
  /** The provider's report of the test delivery, or null when none was asked for. */
  delivery: TestDeliveryResult | null;
  /** Why no delivery was asked for (no test at this provider, a manual subscription), or null. */
  noDelivery: string | null;
}

/**
 * A test of a subscription: the trigger's example event with a fresh id,
 * validated and mapped exactly as the intake would, and, where the
 * provider offers one, delivered by the provider to the subscription's URL.
 */
export async function testSubscription(
  runtime: Runtime,
  trigger: AnyTrigger,
  subscription: Subscription,
  clock: Clock,
  caller?: string,
): Promise<SubscriptionTest> {
  if (!trigger.example) throw new Error(`${trigger.id} has no example event to test with.`);
  const facts = {
    eventId: `toolsteps-test-${randomUUID()}`,
    occurredAt: new Date(clock.now()).toISOString(),
  };
  // The body the provider would send (a new major may parse it to a payload of another shape).
  const body = trigger.example(facts);
  const validated = trigger.event.parse(body);
  const setup = trigger.setup.parse(subscription.setup);
  const skipped = trigger.skipReason?.(validated, setup, subscription.constraints) ?? null;
  const payload = payloadAtMajor(trigger, validated);
  const variables = mapEventVariables(trigger, subscription, payload);
  const reason =
    notAtProvider(trigger, subscription) ?? (trigger.webhook?.test ? undefined : trigger.webhook?.noTest);
  const test = trigger.webhook?.test;
  if (reason || !test) {
    return {
      eventId: facts.eventId,
      payload,
      variables,
      skipped,
      delivery: null,
      noDelivery: reason ?? 'no test delivery',
    };
  }
  const delivery = await withWebhook(
    runtime,
    trigger,
    subscription,
    (context) => test(context, JSON.stringify(body)),
    caller,
  );
  return { eventId: facts.eventId, payload, variables, skipped, delivery, noDelivery: null };
}
