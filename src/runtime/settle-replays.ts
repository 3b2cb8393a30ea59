import { isToolstepsError, type ToolstepsError } from '../errors/index.js';
import type { HttpClient } from '../http/http-client.js';
import { mayHaveLanded } from '../model/write-outcome.js';
import type { AnyStep, StepContext } from '../step/define-step.js';

/**
 * What a request of a step rejects with once the runtime has settled one of
 * its writes. It only stops the handler: the verdict (the step's output) is
 * kept by `ReplaySettling`, never carried by this error, so a step's `catch`
 * that swallows, wraps or rethrows it changes nothing. It never leaves the
 * runtime, and it is no error of the family so no step mistakes it for one.
 */
class ReplaySettled extends Error {
  override readonly name = 'ReplaySettled';
  constructor() {
    super('The runtime found this write already done; the step sends nothing more.');
  }
}

const READS = new Set(['GET', 'HEAD']);

/** The write may have landed, or a replay of it was answered: the only failures a declaration can settle. */
function unsettled(error: unknown): error is ToolstepsError {
  return isToolstepsError(error) && (error.replayed || error.outcome === 'unknown' || mayHaveLanded(error));
}

/**
 * How the runtime settled a write that failed after it may have landed, for
 * the invocation's `meta.replay`: the output alone cannot say it, since each
 * step words its own (`recovered`, `already_done`) or says nothing.
 */
export interface ReplayDecision {
  /**
   * `reconciled`: the step's `reconcile` looked at the provider and found the
   * work done; `already_done`: a 404 answered the replay of an idempotent
   * write (`gone_means_done`), so our first attempt did it.
   */
  decision: 'reconciled' | 'already_done';
  /** The error code of the write it settled (`network_error`, `timeout`, `not_found`, ...). */
  after: string;
}

/** The step's output once a write is found done, and how it was found. */
interface Settled {
  output: unknown;
  replay: ReplayDecision;
}

/**
 * Applies the step's `onReplay` declaration to a failed write:
 * `gone_means_done` reads a 404 that answers a replay as the work done by our
 * first attempt; `reconcile` asks the step's `reconcile` to look at the
 * provider. Returns the output when the work was found done, else undefined.
 */
async function settle(
  step: AnyStep,
  input: unknown,
  context: StepContext,
  error: unknown,
): Promise<Settled | undefined> {
  if (!unsettled(error)) return undefined;
  const found = (output: unknown, decision: ReplayDecision['decision']) =>
    output === undefined ? undefined : { output, replay: { decision, after: error.code } };
  if (step.onReplay === 'gone_means_done') {
    const done =
      error.code === 'not_found' && error.replayed ? step.alreadyDone?.(input, context) : undefined;
    return found(done, 'already_done');
  }
  if (step.onReplay !== 'reconcile' || !step.reconcile) return undefined;
  try {
    return found(await step.reconcile(input, context), 'reconciled');
  } catch (lookup) {
    // The write's own error is the one that says what is known; the failed check travels with it.
    throw error.with({ context: { lookup: isToolstepsError(lookup) ? lookup.toJSON() : String(lookup) } });
  }
}

/** The step's client under its write-safety declaration, and the runtime's verdict on its writes. */
export interface ReplaySettling {
  http: HttpClient;
  /** The step's output when the runtime found one of its writes done, and how; undefined while none was. */
  verdict(): Settled | undefined;
}

/**
 * The step's HTTP client, with its write-safety declaration applied to every
 * write that fails. Reads pass untouched, and `reconcile` looks through the
 * plain client, so a failed look is never itself reconciled.
 *
 * A write found done is an outcome of the run-step stage, not an exception
 * the step must let through: the verdict is kept here, out of band, and
 * `runStep` reads it after the handler returns or throws, and it wins over
 * either. The request still has to end, so it rejects (with `ReplaySettled`),
 * and every later request of the step is refused unsent: a handler that
 * swallows the rejection cannot act on the provider after its output is decided.
 */
export function settlingReplays(
  http: HttpClient,
  step: AnyStep,
  input: unknown,
  context: () => StepContext,
): ReplaySettling {
  let settled: Settled | undefined;
  const verdict = () => settled;
  if (step.onReplay !== 'gone_means_done' && step.onReplay !== 'reconcile') return { http, verdict };
  const settling: HttpClient = {
    baseUrl: http.baseUrl,
    async request(request) {
      if (settled) throw new ReplaySettled();
      try {
        return await http.request(request);
      } catch (error) {
        if (READS.has(request.method) || settled) throw error;
        settled = await settle(step, input, context(), error);
        if (!settled) throw error;
        throw new ReplaySettled();
      }
    },
  };
  return { http: settling, verdict };
}
