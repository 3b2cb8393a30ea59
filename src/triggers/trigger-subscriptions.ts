import { type Clock, systemClock } from '../clock.js';
import { type FieldIssue, InputError } from '../errors/index.js';
import { compileMapping } from '../mapping/mapping.js';
import { checkConstraints } from '../runtime/check-constraints.js';
import type { Runtime } from '../runtime/runtime.js';
import type { SubscriptionStore } from '../store/subscriptions/subscription-store.js';
import type { AnyTrigger } from './define-trigger.js';
import { type Entitlements, requireTriggerPlan } from './entitlements.js';
import { checkSubscription } from './intake/check-subscription.js';
import { withProviderSession } from './provider-session.js';
import { newSubscriptionId, type Subscription, subscriptionUrl } from './subscription.js';

export interface CreateSubscriptionRequest {
  trigger: string;
  connection: string;
  /** Public base URL the provider reaches; deliveries go to `<target>/hooks/<id>`. */
  target: string;
  setup?: Record<string, unknown>;
  mapping?: Record<string, string>;
  constraints?: Record<string, string[]>;
  /** Default true. */
  active?: boolean;
  /**
   * The webhook is made by hand in the provider's settings: nothing is
   * provisioned. The provider shows the secret only once the URL is pasted,
   * so it may come later (`setSecret`); until then every delivery is refused.
   */
  manual?: { secret?: string | undefined };
}

export interface TriggerSubscriptionsOptions {
  triggers: { requireTrigger(id: string): AnyTrigger };
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
 * `provisioning` or `removing` that `remove` finishes.
 */
export class TriggerSubscriptions {
  private readonly clock: Clock;

  constructor(private readonly options: TriggerSubscriptionsOptions) {
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

  async create(request: CreateSubscriptionRequest): Promise<Subscription> {
    const { trigger, setup } = await this.validate(request);
    const store = this.options.subscriptions;
    const subscription = checkSubscription({
      id: newSubscriptionId(),
      trigger: trigger.id,
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
    await store.put(subscription);
    if (request.manual) return subscription;
    const { id } = subscription;
    const record = async (provider: Record<string, string>, secret?: string) => {
      await store.update(id, (current) => ({ ...current, provider, secret: secret ?? current.secret }));
    };
    await withProviderSession(this.options.runtime, trigger, request.connection, (context) =>
      trigger.provision({
        http: context.http,
        connection: context.connection,
        log: context.log,
        subscription: {
          id,
          url: subscriptionUrl(subscription),
          setup,
          constraints: subscription.constraints,
        },
        record,
      }),
    );
    return store.update(id, (current) => ({ ...current, state: 'ready' }));
  }

  /** Deletes what the provider holds for the subscription (rule first, then webhook), then the record. */
  async remove(id: string): Promise<void> {
    const store = this.options.subscriptions;
    const subscription = await this.require(id);
    const hasRemote = !subscription.manual && Object.keys(subscription.provider).length > 0;
    if (hasRemote) {
      const trigger = this.options.triggers.requireTrigger(subscription.trigger);
      await store.update(id, (current) => ({ ...current, state: 'removing', active: false }));
      await withProviderSession(this.options.runtime, trigger, subscription.connection, (context) =>
        trigger.remove({
          http: context.http,
          connection: context.connection,
          log: context.log,
          provider: subscription.provider,
          record: async (provider) => {
            await store.update(id, (current) => ({ ...current, provider }));
          },
        }),
      );
    }
    await store.remove(id);
  }

  /** Stores the signing secret of a manual subscription, as the provider showed it. */
  async setSecret(id: string, secret: string): Promise<Subscription> {
    if (!secret.trim())
      throw new InputError('The signing secret is empty.', [{ path: 'secret', message: 'empty' }]);
    await this.require(id);
    return this.options.subscriptions.update(id, (current) => ({ ...current, secret: secret.trim() }));
  }

  async setActive(id: string, active: boolean): Promise<Subscription> {
    await this.require(id);
    return this.options.subscriptions.update(id, (current) => ({ ...current, active }));
  }

  async require(id: string): Promise<Subscription> {
    // A malformed id is simply not one of ours.
    const found = await this.options.subscriptions.get(id).catch((error: unknown) => {
      if (error instanceof InputError) return undefined;
      throw error;
    });
    if (!found) {
      throw new InputError(`No subscription with id "${id}". List them with: toolsteps subscriptions.`, [
        { path: 'subscription', message: 'unknown subscription id' },
      ]);
    }
    return found;
  }
}
