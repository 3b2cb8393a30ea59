// The time limit of one attempt: every attempt's deadline on one shared timer, not a timer each.

import type { Cancellation } from './wire.js';

/** The time limit of one attempt, and the caller's signal, as one cancellation. */
export interface AttemptDeadline {
  cancellation: Cancellation;
  /** True once the time limit passed (not when the caller aborted). */
  readonly expired: boolean;
  /** Lets go of the deadline and the caller's signal; call it when the attempt ends, whatever happened. */
  clear(): void;
}

/** A deadline waiting in the shared queue: a node of a list kept in order of `due`. */
interface Pending {
  due: number;
  fire: () => void;
  previous: Pending | undefined;
  next: Pending | undefined;
  queued: boolean;
}

/**
 * Deadlines in order of when they fall due, with one timer for the earliest.
 * Nearly every attempt has the runtime's one time limit, so a new deadline
 * falls due last and joins the tail: adding and removing one costs a few
 * pointer moves where a timer of its own cost an insert into Node's timer
 * lists, an unref and a clear per attempt. The timer is set again only when
 * it fires or a deadline falls due before it.
 */
class DeadlineQueue {
  private head: Pending | undefined;
  private tail: Pending | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerDue = Number.POSITIVE_INFINITY;

  add(delayMs: number, fire: () => void): Pending {
    const due = performance.now() + delayMs;
    const pending: Pending = { due, fire, previous: undefined, next: undefined, queued: true };
    let after = this.tail;
    while (after && after.due > due) after = after.previous;
    pending.previous = after;
    pending.next = after ? after.next : this.head;
    if (pending.next) pending.next.previous = pending;
    else this.tail = pending;
    if (after) after.next = pending;
    else this.head = pending;
    if (due < this.timerDue) this.arm(due);
    return pending;
  }

  remove(pending: Pending): void {
    if (!pending.queued) return;
    pending.queued = false;
    if (pending.previous) pending.previous.next = pending.next;
    else this.head = pending.next;
    if (pending.next) pending.next.previous = pending.previous;
    else this.tail = pending.previous;
    pending.previous = undefined;
    pending.next = undefined;
  }

  private arm(due: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => this.fireDue(), Math.max(0, Math.ceil(due - performance.now())));
    // Like AbortSignal.timeout: a pending deadline alone does not keep the process alive.
    this.timer.unref();
  }

  private fireDue(): void {
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const due: Pending[] = [];
    while (this.head && this.head.due <= now) {
      due.push(this.head);
      this.remove(this.head);
    }
    if (this.head) this.arm(this.head.due);
    for (const pending of due) pending.fire();
  }
}

const deadlines = new DeadlineQueue();

/**
 * One deadline per attempt on the shared queue, let go as soon as the
 * attempt ends, and no AbortController unless a wire asks for a signal:
 * `AbortSignal.timeout` plus `AbortSignal.any`, or even a controller with its
 * listeners, cost more CPU per request than the rest of the transport on a
 * small answer.
 */
export function startDeadline(timeoutMs: number, caller?: AbortSignal): AttemptDeadline {
  let expired = false;
  let aborted = false;
  let reason: unknown;
  let listeners: ((reason: unknown) => void)[] | undefined;
  const abort = (why: unknown) => {
    if (aborted) return;
    aborted = true;
    reason = why;
    const waiting = listeners;
    listeners = undefined;
    if (waiting) for (const listener of waiting) listener(why);
  };
  const pending = deadlines.add(timeoutMs, () => {
    expired = true;
    abort(new DOMException('The operation timed out.', 'TimeoutError'));
  });
  const onCallerAbort = caller ? () => abort(caller.reason) : undefined;
  if (caller?.aborted) abort(caller.reason);
  else if (caller && onCallerAbort) caller.addEventListener('abort', onCallerAbort, { once: true });
  return {
    cancellation: {
      get aborted() {
        return aborted;
      },
      get reason() {
        return reason;
      },
      onAbort(listener) {
        if (aborted) listener(reason);
        else if (listeners) listeners.push(listener);
        else listeners = [listener];
      },
    },
    get expired() {
      return expired;
    },
    clear() {
      deadlines.remove(pending);
      listeners = undefined;
      if (caller && onCallerAbort) caller.removeEventListener('abort', onCallerAbort);
    },
  };
}
