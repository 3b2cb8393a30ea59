import type { TestRunResponse } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a test run gave: the mapped variables first (what the workflow gets), then the output. */
export function showTestResult(
  region: HTMLElement,
  result: TestRunResponse | undefined,
  error?: unknown,
): void {
  if (!result) {
    render(
      region,
      h('h4', null, 'Test result'),
      h('p', { className: 'problem' }, `The test failed: ${(error as Error)?.message ?? String(error)}`),
    );
    return;
  }
  const variables = Object.entries(result.variables);
  render(
    region,
    h('h4', null, 'Test result'),
    h(
      'p',
      { className: 'ok' },
      `Ran in ${Math.round(result.meta.durationMs)} ms, ${result.meta.attempts} attempt(s).`,
    ),
    variables.length
      ? h(
          'dl',
          { part: 'variables', className: 'variables' },
          variables.flatMap(([name, value]) => [
            h('dt', null, name),
            h('dd', null, h('code', null, shown(value))),
          ]),
        )
      : null,
    h('details', null, h('summary', null, 'Output'), h('pre', null, JSON.stringify(result.output, null, 2))),
  );
}
