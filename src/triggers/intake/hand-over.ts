import type { TriggerEvent, TriggerEventHandler } from '../../model/trigger-event.js';
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
  const controller = new AbortController();
  const stop = (reason: string) => () => controller.abort(new Error(reason));
  const hold = holdClaim(dedupe, claimed, { ...timing, holdForMs: timing.deadlineMs }, stop('claim lost'));
  const deadline = setTimeout(stop('deadline passed'), timing.deadlineMs);
  const run = (async () => handler(event, { signal: controller.signal }))();
  const stopped = new Promise<'stopped'>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  const outcome = await Promise.race([run.then(() => 'done' as const), stopped]).catch(
    () => 'failed' as const,
  );
  clearTimeout(deadline);
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
