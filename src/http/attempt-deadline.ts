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
  deadline: Deadline;
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

  add(delayMs: number, deadline: Deadline): Pending {
    const due = performance.now() + delayMs;
    const pending: Pending = { due, deadline, previous: undefined, next: undefined, queued: true };
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
    for (const pending of due) pending.deadline.expire();
  }
}

const deadlines = new DeadlineQueue();

const TIMED_OUT = () => new DOMException('The operation timed out.', 'TimeoutError');

/**
 * One attempt's deadline and the caller's signal, as one object that is its
 * own cancellation: no closure per attempt but the caller's abort listener,
 * made only when there is a caller's signal.
 */
class Deadline implements AttemptDeadline, Cancellation {
  #expired = false;
  #aborted = false;
  #reason: unknown;
  #listeners: ((reason: unknown) => void)[] | undefined;
  readonly #pending: Pending;
  readonly #caller: AbortSignal | undefined;
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    this.#pending = deadlines.add(timeoutMs, this);
    this.#caller = caller;
    if (caller?.aborted) this.#abort(caller.reason);
    else if (caller) {
      this.#onCallerAbort = () => this.#abort(caller.reason);
      caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
  }

  get cancellation(): Cancellation {
    return this;
  }

  get expired(): boolean {
    return this.#expired;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  onAbort(listener: (reason: unknown) => void): void {
    if (this.#aborted) listener(this.#reason);
    else if (this.#listeners) this.#listeners.push(listener);
    else this.#listeners = [listener];
  }

  /** The time limit passed (called by the shared queue). */
  expire(): void {
    this.#expired = true;
    this.#abort(TIMED_OUT());
  }

  clear(): void {
    deadlines.remove(this.#pending);
    this.#listeners = undefined;
    if (this.#caller && this.#onCallerAbort) this.#caller.removeEventListener('abort', this.#onCallerAbort);
  }

  #abort(why: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = why;
    const waiting = this.#listeners;
    this.#listeners = undefined;
    if (waiting) for (const listener of waiting) listener(why);
  }
}

/**
 * One deadline per attempt on the shared queue, let go as soon as the
 * attempt ends, and no AbortController unless a wire asks for a signal:
 * `AbortSignal.timeout` plus `AbortSignal.any`, or even a controller with its
 * listeners, cost more CPU per request than the rest of the transport on a
 * small answer.
 */
export function startDeadline(timeoutMs: number, caller?: AbortSignal): AttemptDeadline {
  return new Deadline(timeoutMs, caller);
}
