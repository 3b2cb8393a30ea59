import type { SubscriptionTestResponse } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a subscription's test event gave: received and mapped (or skipped, and why), and the variables it set. */
export function showSubscriptionTest(region: HTMLElement, result: SubscriptionTestResponse): void {
  render(
    region,
    h('h4', null, 'Test result'),
    h(
      'p',
      { className: result.skipped ? 'problem' : 'ok' },
      result.skipped ? `Skipped: ${result.skipped}` : 'The test event was received and mapped.',
    ),
    h(
      'dl',
      null,
      Object.entries(result.variables).flatMap(([name, value]) => [
        h('dt', null, name),
        h('dd', null, h('code', null, shown(value))),
      ]),
    ),
    result.delivery ? h('p', { className: 'hint' }, result.delivery.message) : null,
  );
}
