import * as z from 'zod';
import { JsonSchemaDocument } from './api-schemas.js';

export const TriggerView = z
  .object({
    id: z.string(),
    integration: z.string(),
    title: z.string(),
    description: z.string(),
    /** The delivery body's schema. */
    payload: JsonSchemaDocument,
    /** Options chosen when subscribing. */
    setup: JsonSchemaDocument,
    /** The default payload-to-variable mapping: name to JSONPath. */
    variables: z.record(z.string(), z.string()),
    /** A delivery body as the provider would send it, or null when the trigger has none. */
    sample: z.unknown(),
  })
  .meta({ id: 'TriggerView' });
export const TriggersQuery = z.object({ integration: z.string().max(64).optional() });
export const TriggersResponse = z.object({ triggers: z.array(TriggerView) }).meta({ id: 'TriggersResponse' });

export const CreateSubscriptionBody = z
  .object({
    trigger: z.string().min(1).max(128),
    connection: z.string().min(1).max(64),
    setup: z.record(z.string(), z.unknown()).default({}),
    /** Agent input variable to JSONPath over the event payload, added to the trigger's defaults. */
    mapping: z.record(z.string(), z.string()).default({}),
    /** Default false: test first, then activate. */
    active: z.boolean().default(false),
  })
  .meta({ id: 'CreateSubscriptionBody' });

/** A subscription as the builder shows it: never its signing secret. */
export const SubscriptionView = z
  .object({
    id: z.string(),
    trigger: z.string(),
    connection: z.string(),
    url: z.string(),
    active: z.boolean(),
    state: z.enum(['provisioning', 'ready', 'removing']),
    setup: z.record(z.string(), z.unknown()),
    mapping: z.record(z.string(), z.string()),
    hasSecret: z.boolean(),
    createdAt: z.string(),
    lastDeliveryAt: z.string().nullable(),
  })
  .meta({ id: 'SubscriptionView' });
export const SubscriptionsResponse = z
  .object({ subscriptions: z.array(SubscriptionView) })
  .meta({ id: 'SubscriptionsResponse' });

export const SubscriptionStatus = z
  .object({
    subscription: SubscriptionView,
    /** The provider's view of the webhook, read now; `unavailable` or `error` when it could not be. */
    provider: z.union([
      z.object({
        exists: z.boolean(),
        state: z.string().nullable(),
        details: z.record(z.string(), z.string()),
      }),
      z.object({ unavailable: z.string() }),
      z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
    ]),
  })
  .meta({ id: 'SubscriptionStatus' });

export const SubscriptionTestResponse = z
  .object({
    subscription: z.string(),
    eventId: z.string(),
    payload: z.unknown(),
    /** What the subscription maps from the sample: the agent's input variables. */
    variables: z.record(z.string(), z.unknown()),
    /** Why this subscription would skip such an event, or null. */
    skipped: z.string().nullable(),
    /** The provider's report of its delivery to the intake, or null when none was sent. */
    delivery: z
      .object({ delivered: z.boolean(), status: z.number().int().nullable(), message: z.string() })
      .nullable(),
    noDelivery: z.string().nullable(),
  })
  .meta({ id: 'SubscriptionTestResponse' });

/**
 * One event on `GET /v1/events` (`event: trigger`, `data:` this as JSON),
 * sent when the intake starts an event for one of the tenant's subscriptions.
 */
export const StreamedTriggerEvent = z
  .object({
    subscription: z.string(),
    trigger: z.string(),
    eventId: z.string(),
    occurredAt: z.string(),
    receivedAt: z.string(),
    variables: z.record(z.string(), z.unknown()),
    payload: z.unknown(),
    /** True for a subscription test's sample delivery. */
    test: z.boolean(),
  })
  .meta({ id: 'StreamedTriggerEvent' });
