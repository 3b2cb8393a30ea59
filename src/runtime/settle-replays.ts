import { isToolstepsError, type ToolstepsError } from '../errors/index.js';
import type { HttpClient } from '../http/http-client.js';
import type { AnyStep, StepContext } from '../step/define-step.js';
import { mayHaveLanded } from '../step/write-outcome.js';

/**
 * Carries the output of a write the runtime settled (the work was found
 * done) from the transport, through the step's handler, to `runStep`. A
 * step's own `catch` rethrows what it does not recognise, so it passes.
 */
export class ReplaySettled extends Error {
  override readonly name = 'ReplaySettled';
  constructor(readonly output: unknown) {
    super('The runtime found this write already done.');
  }
}

const READS = new Set(['GET', 'HEAD']);

/** The write may have landed, or a replay of it was answered: the only failures a declaration can settle. */
function unsettled(error: unknown): error is ToolstepsError {
  return isToolstepsError(error) && (error.replayed || error.outcome === 'unknown' || mayHaveLanded(error));
}

/**
 * Applies the step's `onReplay` declaration to a failed write:
 * `gone_means_done` reads a 404 that answers a replay as the work done by our
 * first attempt; `reconcile` asks the step's `reconcile` to look at the
 * provider. Returns the output when the work was found done, else undefined.
 */
async function settle(step: AnyStep, input: unknown, context: StepContext, error: unknown): Promise<unknown> {
  if (!unsettled(error)) return undefined;
  if (step.onReplay === 'gone_means_done') {
    return error.code === 'not_found' && error.replayed ? step.alreadyDone?.(input, context) : undefined;
  }
  if (step.onReplay !== 'reconcile' || !step.reconcile) return undefined;
  try {
    return await step.reconcile(input, context);
  } catch (lookup) {
    // The write's own error is the one that says what is known; the failed check travels with it.
    throw error.with({ context: { lookup: isToolstepsError(lookup) ? lookup.toJSON() : String(lookup) } });
  }
}

/**
 * The step's HTTP client, with its write-safety declaration applied to every
 * write that fails: a write found done ends the step with its output. Reads
 * pass untouched, and `reconcile` looks through the plain client, so a failed
 * look is never itself reconciled.
 */
export function settlingReplays(
  http: HttpClient,
  step: AnyStep,
  input: unknown,
  context: () => StepContext,
): HttpClient {
  if (step.onReplay !== 'gone_means_done' && step.onReplay !== 'reconcile') return http;
  return {
    baseUrl: http.baseUrl,
    async request(request) {
      try {
        return await http.request(request);
      } catch (error) {
        if (READS.has(request.method)) throw error;
        const output = await settle(step, input, context(), error);
        if (output !== undefined) throw new ReplaySettled(output);
        throw error;
      }
    },
  };
}
