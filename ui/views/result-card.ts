import { h } from '../dom/dom.js';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The card a test's outcome is shown in (part `result-card`): a headline in
 * words (what happened, for the person who ran it), then the variables the
 * workflow gets, each name beside its value, then what else there is to see.
 */
export function resultCard(
  outcome: 'ok' | 'skipped' | 'failed',
  headline: string,
  variables: Record<string, unknown>,
  ...more: (HTMLElement | null)[]
): HTMLElement {
  const entries = Object.entries(variables);
  return h(
    'div',
    { className: `card card-${outcome}`, part: 'result-card' },
    h('h4', null, 'Test result'),
    h('p', { className: outcome === 'ok' ? 'ok headline' : 'problem headline' }, headline),
    entries.length
      ? h(
          'dl',
          { part: 'variables', className: 'variables' },
          entries.flatMap(([name, value]) => [
            h('dt', null, name),
            h('dd', null, h('code', null, shown(value))),
          ]),
        )
      : null,
    ...more,
  );
}
