import * as z from 'zod';
import { isToolstepsError } from '../errors/index.js';
import { type Subscription, toPublicSubscription } from '../model/subscription.js';
import { readWebhookStatus, testSubscription as sendTestEvent } from '../triggers/subscription-webhook.js';
import type { RouteHandler } from './api-call.js';
import {
  mayUseIntegration,
  mayUseTrigger,
  requireConnection,
  requireSubscription,
  requireWritable,
} from './tenant-guards.js';
import type { CreateSubscriptionBody, TriggersQuery } from './trigger-schemas.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** A subscription as the API answers it: never its signing secret. */
export function toSubscriptionView(subscription: Subscription) {
  const shown = toPublicSubscription(subscription);
  return {
    id: shown.id,
    trigger: shown.trigger,
    connection: shown.connection,
    url: shown.url,
    active: shown.active,
    state: shown.state,
    setup: shown.setup,
    mapping: shown.mapping,
    hasSecret: shown.hasSecret,
    createdAt: iso(shown.createdAt)!,
    lastDeliveryAt: iso(shown.lastDeliveryAt),
  };
}

const listTriggers: RouteHandler = async (call) => {
  const { integration } = call.query as z.output<typeof TriggersQuery>;
  const triggers = call.server.options.registry
    .listTriggers(integration)
    .filter((trigger) => mayUseIntegration(call, trigger.integration.id));
  const now = new Date(call.server.now()).toISOString();
  return {
    triggers: triggers.map((trigger) => ({
      id: trigger.id,
      integration: trigger.integration.id,
      title: trigger.title,
      description: trigger.description,
      // What mappings read: the parsed payload, which a new major may shape from the provider's body.
      payload: z.toJSONSchema(trigger.event, { io: 'output', unrepresentable: 'any' }),
      setup: z.toJSONSchema(trigger.setup, { io: 'input', unrepresentable: 'any' }),
      variables: { ...trigger.variables },
      sample: trigger.example ? trigger.example({ eventId: 'sample-event', occurredAt: now }) : null,
    })),
  };
};

const listSubscriptions: RouteHandler = async (call) => {
  const all = await call.tenant.stores.subscriptions.list();
  return {
    subscriptions: all
      .filter((subscription) => mayUseTrigger(call, subscription.trigger))
      .map(toSubscriptionView),
  };
};

const createSubscription: RouteHandler = async (call) => {
  requireWritable(call);
  const request = call.body as z.output<typeof CreateSubscriptionBody>;
  await requireConnection(call, request.connection);
  const created = await call.tenant.subscriptions.create({
    ...request,
    target: call.server.publicUrl(),
    caller: call.claims.tokenId,
  });
  return toSubscriptionView(created);
};

const subscriptionStatus: RouteHandler = async (call) => {
  const subscription = await requireSubscription(call, call.params.subscriptionId!);
  const trigger = call.server.options.registry.requireTrigger(subscription.trigger);
  const provider = await readWebhookStatus(
    call.tenant.runtime,
    trigger,
    subscription,
    call.claims.tokenId,
  ).catch((error: unknown) => {
    if (!isToolstepsError(error)) throw error;
    return { error: { code: error.code, message: error.message } };
  });
  return { subscription: toSubscriptionView(subscription), provider };
};

/** A sample event delivered by the provider to the subscription's URL, through the real intake. */
const testSubscription: RouteHandler = async (call) => {
  requireWritable(call);
  const subscription = await requireSubscription(call, call.params.subscriptionId!);
  const trigger = call.server.options.registry.requireTrigger(subscription.trigger);
  const { runtime } = call.tenant;
  const test = await sendTestEvent(runtime, trigger, subscription, runtime.clock, call.claims.tokenId);
  return { subscription: subscription.id, ...test };
};

function setActive(active: boolean): RouteHandler {
  return async (call) => {
    requireWritable(call);
    const { id } = await requireSubscription(call, call.params.subscriptionId!);
    return toSubscriptionView(await call.tenant.subscriptions.setActive(id, active, call.claims.tokenId));
  };
}

const removeSubscription: RouteHandler = async (call) => {
  requireWritable(call);
  const { id } = await requireSubscription(call, call.params.subscriptionId!);
  await call.tenant.subscriptions.remove(id, call.claims.tokenId);
  return { id, removed: true };
};

export const subscriptionRoutes = {
  listTriggers,
  listSubscriptions,
  createSubscription,
  subscriptionStatus,
  testSubscription,
  activateSubscription: setActive(true),
  deactivateSubscription: setActive(false),
  removeSubscription,
};
