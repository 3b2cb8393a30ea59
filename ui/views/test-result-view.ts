import type { TestRunResponse } from '../client/api-types.js';
import { h, render } from '../dom/dom.js';
import { resultCard } from './result-card.js';

/** "in 0.4 seconds", "in 120 ms": how long the run took, as a person says it. */
function took(durationMs: number): string {
  return durationMs >= 1000 ? `${(durationMs / 1000).toFixed(1)} seconds` : `${Math.round(durationMs)} ms`;
}

/** What a test run gave, as a card: how it went, the mapped variables (what the workflow gets), then the output. */
export function showTestResult(
  region: HTMLElement,
  result: TestRunResponse | undefined,
  error?: unknown,
): void {
  if (!result) {
    render(
      region,
      resultCard('failed', `The test did not run: ${(error as Error)?.message ?? String(error)}`, {}),
    );
    return;
  }
  const retries = result.meta.attempts - 1;
  const retried = retries > 0 ? `, after ${retries === 1 ? 'one retry' : `${retries} retries`}` : '';
  render(
    region,
    resultCard(
      'ok',
      `Ran in ${took(result.meta.durationMs)}${retried}.`,
      result.variables,
      h(
        'details',
        null,
        h('summary', null, 'Everything the step returned'),
        h('pre', null, JSON.stringify(result.output, null, 2)),
      ),
    ),
  );
}
