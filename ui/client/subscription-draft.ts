import { pathOf } from './api-routes.js';
import type { SubscriptionView } from './api-types.js';
import type { BuilderClient } from './builder-client.js';

/** What a subscription is made for: the trigger, the account, the trigger's options and the mapping. */
export interface SubscriptionChoice {
  trigger: string;
  connection: string;
  setup: Record<string, unknown>;
  mapping: Record<string, string>;
}

/** What the element shows while the draft changes hands. */
export interface SubscriptionDraftSteps {
  /** The old subscription was deleted; `active` when it had been activated (the button offers Activate again). */
  replaced(active: boolean): void;
  subscribing(): void;
}

/**
 * The subscription `<toolsteps-trigger-setup>` makes for what is chosen:
 * made (inactive) when first needed, kept while the choice stays the same,
 * and replaced when it changes: the old one is deleted, active or not, so no
 * agent keeps receiving events mapped the old way; the new one waits for
 * Activate.
 */
export class SubscriptionDraft {
  #current: SubscriptionView | undefined;
  #madeFor = '';

  get current(): SubscriptionView | undefined {
    return this.#current;
  }

  /** The subscription as activation answered it, for the same choice. */
  activated(subscription: SubscriptionView): void {
    this.#current = subscription;
  }

  async ensure(
    client: () => BuilderClient,
    choice: SubscriptionChoice,
    steps: SubscriptionDraftSteps,
  ): Promise<SubscriptionView> {
    const wanted = JSON.stringify(choice);
    if (this.#current && this.#madeFor === wanted) return this.#current;
    const api = client();
    if (this.#current) {
      const replaced = this.#current;
      await api.delete(pathOf('removeSubscription', { subscriptionId: replaced.id })).catch(() => {});
      this.#current = undefined;
      steps.replaced(replaced.active);
    }
    steps.subscribing();
    this.#current = await api.post<SubscriptionView>(pathOf('createSubscription'), {
      ...choice,
      active: false,
    });
    this.#madeFor = wanted;
    return this.#current;
  }
}
