import { type FieldIssue, InputError, NotFoundError } from '../errors/index.js';
import { compileMapping } from '../mapping/mapping.js';
import { checkSubscription } from '../model/check-subscription.js';
import { type Clock, systemClock } from '../model/clock.js';
import { newSubscriptionId, type Subscription } from '../model/subscription.js';
import { DEFAULT_TENANT } from '../model/tenant-id.js';
import { checkConstraints } from '../runtime/check-constraints.js';
import type { Runtime } from '../runtime/runtime.js';
import { latestMajor, parseReference, referenceOf } from '../step/step-version.js';
import type { SubscriptionStore } from '../store/subscription-store.js';
import type { AnyTrigger } from './define-trigger.js';
import { type Entitlements, requireTriggerPlan } from './entitlements.js';
import type { RemovedItem } from './provider-webhook.js';
import { provisionSubscription } from './provision-subscription.js';
import { withProvisioned } from './provisioned-subscription.js';
import { removeAtProvider, type SubscriptionRemoval, summarizeRemoval } from './remove-at-provider.js';
import type { CreateSubscriptionRequest, SubscribedTriggerId } from './subscription-request.js';

export type { CreateSubscriptionRequest, SubscribedTriggerId } from './subscription-request.js';

/** What subscriptions are made with: the registry, a runtime for the provider calls, the store and the plan. */
export interface TriggerSubscriptionsOptions<TriggerId extends string = string> {
  triggers: {
    /** The trigger a subscription names; it throws an InputError for an unknown id, which this passes on. */
    requireTrigger(id: string): AnyTrigger;
    /** Type only: what the registry holds (`Registry.holds`), so `create` checks its `trigger` at compile time. */
    readonly holds?: { triggers: { id: TriggerId } } | undefined;
  };
  runtime: Runtime;
  subscriptions: SubscriptionStore;
  /** The organisation's plan, from the embedder: triggers need Enterprise. */
  entitlements: Entitlements;
  clock?: Clock;
}

/**
 * Subscribes workflows to triggers: checks the plan and every option before
 * anything is stored or sent, provisions the webhook at the provider
 * through the connection, and removes it again. Each provider step is
 * recorded as it happens, so a failure leaves a subscription in state
 * `provisioning` (that `activate` finishes) or `removing` (that `remove`
 * finishes); the webhook's URL names the subscription, so what a lost
 * answer made is found again rather than made twice or left behind.
 */
export class TriggerSubscriptions<TriggerId extends string = string> {
  private readonly clock: Clock;
  /** Type only, never set: the registry's trigger ids, read by `create` through its `this` (see `Registry.holds`). */
  declare readonly triggerIds?: TriggerId;

  constructor(private readonly options: TriggerSubscriptionsOptions<TriggerId>) {
    this.clock = options.clock ?? systemClock;
  }

  private async validate(
    request: CreateSubscriptionRequest,
  ): Promise<{ trigger: AnyTrigger; setup: unknown }> {
    requireTriggerPlan(this.options.entitlements);
    const trigger = this.options.triggers.requireTrigger(request.trigger);
    const setup = trigger.setup.safeParse(request.setup ?? {});
    if (!setup.success) {
      const issues: FieldIssue[] = setup.error.issues.map(
        (issue: { path: PropertyKey[]; message: string }) => ({
          path: ['setup', ...issue.path.map(String)].join('.'),
          message: issue.message,
        }),
      );
      throw new InputError(
        `Invalid setup for ${trigger.id}: ${issues.map((issue) => issue.path).join(', ')}.`,
        issues,
      );
    }
    compileMapping(request.mapping ?? {}, 'mapping');
    checkConstraints(trigger.id, trigger.integration, request.constraints);
    const connection = await this.options.runtime.store.get(request.connection);
    if (!connection || connection.integration !== trigger.integration.id) {
      throw new InputError(
        `Trigger ${trigger.id} needs a ${trigger.integration.id} connection; "${request.connection}" is ${connection ? `a ${connection.integration} connection` : 'not a connection id'}.`,
        [{ path: 'connection', message: `expected a ${trigger.integration.id} connection` }],
      );
    }
    if (request.manual?.secret === '') {
      throw new InputError('The signing secret is empty.', [{ path: 'secret', message: 'empty' }]);
    }
    return { trigger, setup: setup.data };
  }

  /**
   * Validates, stores the subscription as `provisioning`, makes the webhook at
   * the provider and stores it `active`; a failure midway leaves a record that
   * `activate` finishes, never a webhook nobody knows of.
   */
  async create<const Id extends string, This extends TriggerSubscriptions = TriggerSubscriptions>(
    this: This,
    request: CreateSubscriptionRequest<SubscribedTriggerId<NonNullable<This['triggerIds']>, Id>>,
  ): Promise<Subscription> {
    const { trigger, setup } = await this.validate(request);
    const store = this.options.subscriptions;
    const { tenant } = this.options.runtime;
    const subscription = checkSubscription({
      id: newSubscriptionId(),
      // The default tenant's records carry no tenant, as before tenants: their URLs stay as they were.
      ...(tenant === DEFAULT_TENANT ? {} : { tenant }),
      // A trigger named with its major (`id@1`) is kept so: the intake then serves this subscription only
      // while the trigger is at that major, and refuses its deliveries (trigger_unavailable) once it is not,
      // rather than map a payload whose paths moved. A bare id follows the trigger's latest major.
      // (`trigger.id` of an earlier major already reads `id@major`.)
      trigger:
        parseReference(request.trigger)?.major === undefined
          ? trigger.id
          : referenceOf(parseReference(trigger.id)!.id, latestMajor(trigger)),
      connection: request.connection,
      target: request.target,
      provider: {},
      secret: request.manual?.secret,
      setup: request.setup ?? {},
      mapping: request.mapping ?? {},
      constraints: request.constraints ?? {},
      active: request.active ?? true,
      manual: Boolean(request.manual),
      state: request.manual ? 'ready' : 'provisioning',
      createdAt: this.clock.now(),
    });
    const entry = { action: 'subscription.create' as const, target: subscription.id, caller: request.caller };
    return this.options.runtime.recordWrite(entry, async () => {
      await store.put(subscription);
      if (request.manual) return subscription;
      return this.provision(trigger, subscription, setup, false, request.caller);
    });
  }

  /**
   * Provisions at the provider and marks the subscription ready. `retry`:
   * an earlier attempt may have made the webhook, so it is looked for by
   * its URL first and adopted (see `provisionSubscription`).
   */
  private async provision(
    trigger: AnyTrigger,
    subscription: Subscription,
    setup: unknown,
    retry: boolean,
    caller: string | undefined,
  ): Promise<Subscription> {
    const store = this.options.subscriptions;
    const { id } = subscription;
    const result = await provisionSubscription(this.options.runtime, {
      trigger,
      subscription,
      setup,
      retry,
      caller,
      record: async (provider, secret) => {
        await store.update(id, (current) => withProvisioned(current, { provider, secret }));
      },
    });
    return store.update(id, (current) => ({ ...withProvisioned(current, result), state: 'ready' }));
  }

  /**
   * Finishes a subscription left `provisioning` by a failure: finds what an
   * earlier attempt made at the provider by the subscription's URL and
   * adopts it, or creates what is missing. A ready or manual one is returned as is.
   */
  async resume(id: string, caller?: string): Promise<Subscription> {
    const subscription = await this.require(id);
    if (subscription.manual || subscription.state !== 'provisioning') return subscription;
    requireTriggerPlan(this.options.entitlements);
    const trigger = this.options.triggers.requireTrigger(subscription.trigger);
    return this.provision(trigger, subscription, trigger.setup.parse(subscription.setup), true, caller);
  }

  /**
   * Deletes what the provider holds for the subscription (rule first, then
   * webhook, and while the record may be incomplete, any webhook found by
   * its URL), then the record; says what it found and did there.
   */
  async remove(id: string, caller?: string): Promise<SubscriptionRemoval> {
    const subscription = await this.require(id);
    const entry = { action: 'subscription.remove' as const, target: id, caller };
    return this.options.runtime.recordWrite(entry, () => this.removeFound(subscription, caller));
  }

  private async removeFound(
    subscription: Subscription,
    caller: string | undefined,
  ): Promise<SubscriptionRemoval> {
    const store = this.options.subscriptions;
    const { id } = subscription;
    let removed = { items: [] as RemovedItem[], looked: false };
    if (!subscription.manual) {
      const trigger = this.options.triggers.requireTrigger(subscription.trigger);
      await store.update(id, (current) => ({ ...current, state: 'removing', active: false }));
      removed = await removeAtProvider(
        this.options.runtime,
        trigger,
        subscription,
        async (provider) => {
          await store.update(id, (current) => ({ ...current, provider }));
        },
        caller,
      );
    }
    await store.remove(id);
    return {
      id,
      provider: summarizeRemoval(subscription, removed.items, removed.looked),
      manual: subscription.manual,
      items: removed.items,
    };
  }

  /** Stores the signing secret of a manual subscription, as the provider showed it. */
  async setSecret(id: string, secret: string, caller?: string): Promise<Subscription> {
    if (!secret.trim())
      throw new InputError('The signing secret is empty.', [{ path: 'secret', message: 'empty' }]);
    await this.require(id);
    return this.options.runtime.recordWrite({ action: 'subscription.secret', target: id, caller }, () =>
      this.options.subscriptions.update(id, (current) => ({ ...current, secret: secret.trim() })),
    );
  }

  /** Turns deliveries on or off; activating one left `provisioning` finishes its provisioning first. */
  async setActive(id: string, active: boolean, caller?: string): Promise<Subscription> {
    await this.require(id);
    const action = active ? 'subscription.activate' : 'subscription.deactivate';
    return this.options.runtime.recordWrite({ action, target: id, caller }, async () => {
      if (active) await this.resume(id, caller);
      return this.options.subscriptions.update(id, (current) => ({ ...current, active }));
    });
  }

  /** The subscription, or an InputError naming the id: a malformed id is reported as unknown, like any other id we do not hold. */
  async require(id: string): Promise<Subscription> {
    // A malformed id is simply not one of ours.
    const found = await this.options.subscriptions.get(id).catch((error: unknown) => {
      if (error instanceof InputError) return undefined;
      throw error;
    });
    if (!found) {
      // Another tenant's subscription is missing from this tenant's store exactly as one nobody holds.
      throw new NotFoundError(`No subscription with id "${id}". List them with: toolsteps subscriptions.`, {
        fields: [{ path: 'subscription', message: 'unknown subscription id' }],
      });
    }
    return found;
  }
}
