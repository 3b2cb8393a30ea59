import type { SubscriptionTestResponse } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { resultCard } from './result-card.js';

/**
 * What a subscription's test event gave, as a card: mapped (or skipped, and
 * why), the variables it set, and whether the provider delivered it, in words.
 */
export function showSubscriptionTest(region: HTMLElement, result: SubscriptionTestResponse): void {
  const delivery = result.delivery;
  render(
    region,
    resultCard(
      result.skipped ? 'skipped' : 'ok',
      result.skipped
        ? `The agent would not start for this event: ${result.skipped}.`
        : 'The sample event was received and would start the agent with:',
      result.variables,
      delivery
        ? h(
            'p',
            { className: delivery.delivered ? 'hint' : 'problem' },
            delivery.delivered
              ? 'The provider delivered a test event to this builder.'
              : `The provider could not deliver a test event: ${delivery.message}`,
          )
        : null,
    ),
  );
}
