import { startDeadline } from '../../http/attempt-deadline.js';
import type { HandOff, TriggerEvent, TriggerEventHandler } from '../../model/trigger-event.js';
import type { DedupeStore } from '../../store/dedupe-store.js';
import { type ClaimedEvent, holdClaim } from './hold-claim.js';
import { IntakeRefusal } from './intake-refusal.js';

export type { ClaimedEvent } from './hold-claim.js';

/** How long a hand-off may run, and how its claim is held meanwhile (see hold-claim.ts). */
export interface HandOffTiming {
  /** The handler's deadline: its signal aborts then and the delivery answers 500. */
  deadlineMs: number;
  /** The claim's lease, renewed every `renewEveryMs` until the deadline. */
  leaseMs: number;
  renewEveryMs: number;
  /** How long a handled event stays done. */
  doneTtlMs: number;
}

/**
 * How a hand-off is told to stop: `stopped` resolves at the first `stop`,
 * and the handler's signal aborts with its reason. The signal (an
 * AbortController, whose event listeners cost more than the rest of a quick
 * hand-off) is made only when the handler reads it.
 */
function handOffStop() {
  let controller: AbortController | undefined;
  let reason: Error | undefined;
  let settle: (stopped: 'stopped') => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    settle = resolve;
  });
  const handOff: HandOff = {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (reason) controller.abort(reason);
      }
      return controller.signal;
    },
  };
  return {
    handOff,
    stopped,
    stop(why: string) {
      if (reason) return;
      reason = new Error(why);
      controller?.abort(reason);
      settle('stopped');
    },
  };
}

/**
 * Stage 9, hand over. The handler runs while its claim is renewed, up to
 * its deadline. A handler that throws releases the claim and answers 500,
 * leaving the event undone so the provider's retry starts it. A handled
 * event is marked done before the 200 goes out, so a retry of a lost 200
 * is a duplicate, and is never released after (give `dedupe` a
 * DonePendingDedupeStore, whose mark cannot fail). A handler still running
 * at its deadline is told to stop and the delivery answers 500 at once;
 * its claim lapses one lease later, and whatever the handler does after
 * still counts (done if it succeeds, released if it fails).
 */
export async function handOver(
  handler: TriggerEventHandler,
  event: TriggerEvent,
  dedupe: DedupeStore,
  claimed: ClaimedEvent,
  timing: HandOffTiming,
): Promise<void> {
  const stopping = handOffStop();
  const hold = holdClaim(dedupe, claimed, { ...timing, holdForMs: timing.deadlineMs }, () =>
    stopping.stop('claim lost'),
  );
  const deadline = startDeadline(timing.deadlineMs);
  deadline.cancellation.onAbort(() => stopping.stop('deadline passed'));
  const run = (async () => handler(event, stopping.handOff))();
  const outcome = await Promise.race([run.then(() => 'done' as const), stopping.stopped]).catch(
    () => 'failed' as const,
  );
  deadline.clear();
  hold.stop();
  const markDone = () => dedupe.complete(claimed.key, claimed.token, timing.doneTtlMs);
  const release = () => dedupe.release(claimed.key, claimed.token);
  if (outcome === 'done') return markDone();
  if (outcome === 'failed') {
    await release();
    throw new IntakeRefusal(
      500,
      'handler_failed',
      'The handler failed; the event was not started. Send it again.',
    );
  }
  run.then(markDone, release).catch(() => undefined);
  throw new IntakeRefusal(
    500,
    'handler_timeout',
    'The handler did not finish within its deadline and was told to stop. Send it again.',
  );
}
