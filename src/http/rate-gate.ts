// The in-process rate gate of one connection, and the stage that holds each request at a gate.

import { RateLimitError } from '../errors/index.js';
import type { Clock } from '../model/clock.js';
import { type Gate, type RateLimitSnapshot, type RateLimitWindow, saneWindow } from '../model/rate-limit.js';
import { addStats, type Exchange, NO_STATS, type Outgoing, type Send } from './exchange.js';

const UNKNOWN_RESET_PAUSE_MS = 1000;

export interface RateGateOptions {
  clock: Clock;
  /** Longest wait the gate accepts before failing with RateLimitError instead. */
  maxWaitMs: number;
  /** Requests kept in hand per window, so parallel callers do not overshoot. */
  reserve?: number;
}

interface WindowState extends RateLimitWindow {
  /** Requests `remaining` may not count yet: sent since, or unanswered when, the provider said it. */
  inFlight: number;
  /** When an answer last told us about this window. */
  observedAt: number;
  /** For a window known only by its length: when we first saw its current cycle. */
  cycleSeenAt?: number;
}

/**
 * Waits before a request when the provider's own headers say the quota is
 * spent, instead of sending and being told 429. One gate per connection: it
 * learns from every response and counts requests it lets through until the
 * next response corrects the count.
 */
export class RateGate implements Gate {
  private windows = new Map<string, WindowState>();
  private last: RateLimitSnapshot | undefined;
  /** Requests let through and not yet answered: the provider may not have counted them. */
  private unanswered = 0;
  private waitCount = 0;
  private waitedTotalMs = 0;

  constructor(private readonly options: RateGateOptions) {}

  get snapshot(): RateLimitSnapshot | undefined {
    return this.last;
  }

  /**
   * How many times callers of this gate waited, over its life (each call's own
   * count is in its `meta`). Read-only: the gate's own bookkeeping, which a
   * reader must not be able to reset or skew.
   */
  get waits(): number {
    return this.waitCount;
  }

  /** How long callers of this gate waited in all, in ms of its clock. */
  get waitedMs(): number {
    return this.waitedTotalMs;
  }

  /** Called once per request let through, with what its answer's headers say (or undefined). */
  observe(snapshot: RateLimitSnapshot | undefined): void {
    this.unanswered = Math.max(0, this.unanswered - 1);
    this.learn(snapshot);
  }

  /** Learns from an answer that does not settle a request of ours (a redirect hop). */
  learn(snapshot: RateLimitSnapshot | undefined): void {
    if (!snapshot) return;
    this.last = snapshot;
    for (const window of snapshot.windows) {
      const sane = saneWindow(window, snapshot.observedAt);
      if (sane) this.windows.set(window.name, this.estimateReset(sane, snapshot.observedAt));
    }
  }

  /** Called when a request let through ended without a response (network failure, timeout). */
  abandon(): void {
    this.unanswered = Math.max(0, this.unanswered - 1);
  }

  /**
   * A window that names its length but not its reset (C) refills at most one
   * length after its cycle began, and its cycle began no later than the first
   * answer we saw in it (fixed and sliding windows alike). A rise in
   * `remaining`, or an answer after the estimated refill, starts a new cycle.
   * The bound is safe but can run late; when it runs early (another client's
   * refill went unseen) the 429 that follows starts a fresh cycle.
   */
  private estimateReset(window: RateLimitWindow, observedAt: number): WindowState {
    // Requests still unanswered may not be in `remaining` yet (with one at a time, there are none).
    const inFlight = this.unanswered;
    const previous = this.windows.get(window.name);
    let resetAt = window.resetAt;
    let cycleSeenAt: number | undefined;
    if (resetAt === undefined) {
      // An answer that gives the count but not the reset (A: only list answers carry
      // ratelimit-reset) keeps the reset an earlier answer gave for the same cycle,
      // instead of forgetting it and probing once a second until the window refills.
      const sameCycle =
        previous?.resetAt !== undefined &&
        observedAt < previous.resetAt &&
        window.remaining <= previous.remaining;
      if (window.windowMs === undefined) {
        if (sameCycle) resetAt = previous.resetAt;
      } else {
        cycleSeenAt = sameCycle && previous.cycleSeenAt !== undefined ? previous.cycleSeenAt : observedAt;
        resetAt = cycleSeenAt + window.windowMs;
      }
    }
    // Every answer moves a window's numbers: the state is updated in place, not
    // copied per answer (nothing else holds it), which was most of the gate's cost.
    const state = previous ?? { name: window.name, remaining: 0, inFlight: 0, observedAt };
    state.remaining = window.remaining;
    state.limit = window.limit;
    state.resetAt = resetAt;
    state.windowMs = window.windowMs;
    state.inFlight = inFlight;
    state.observedAt = observedAt;
    state.cycleSeenAt = cycleSeenAt;
    return state;
  }

  /**
   * How many times this caller waited before a request may be sent; counts
   * the request against every known window. A number at once when no window
   * is spent (nearly every request), so the request goes without waiting a
   * turn of the event loop for a promise; else a promise of it.
   */
  acquire(signal?: AbortSignal): number | Promise<number> {
    const now = this.options.clock.now();
    const waitUntil = this.waitUntil(now);
    if (waitUntil > now) return this.waitThenAcquire(waitUntil, now, signal);
    this.admit();
    return 0;
  }

  /** Waits until no known window is spent, then counts the request. */
  private async waitThenAcquire(until: number, from: number, signal?: AbortSignal): Promise<number> {
    let waited = 0;
    let waitUntil = until;
    let now = from;
    while (waitUntil > now) {
      const waitMs = waitUntil - now;
      if (waitMs > this.options.maxWaitMs) {
        throw new RateLimitError(
          `The provider's quota is spent for another ${Math.ceil(waitMs / 1000)} s; that is longer than the ${this.options.maxWaitMs} ms this call may wait.`,
          { retryAfterMs: waitMs, sent: false },
        );
      }
      this.waitCount += 1;
      waited += 1;
      this.waitedTotalMs += waitMs;
      await this.options.clock.sleep(waitMs, signal);
      now = this.options.clock.now();
      waitUntil = this.waitUntil(now);
    }
    this.admit();
    return waited;
  }

  private admit(): void {
    this.unanswered += 1;
    for (const window of this.windows.values()) window.inFlight += 1;
  }

  /** When a request may go, by what the windows say at `now` (at or before `now`: at once). */
  private waitUntil(now: number): number {
    const reserve = this.options.reserve ?? 0;
    let waitUntil = 0;
    for (const [name, known] of this.windows) {
      let window = known;
      if (window.resetAt !== undefined && window.resetAt <= now) {
        if (window.cycleSeenAt === undefined || window.limit === undefined || window.windowMs === undefined) {
          // The window has rolled over; the next response will tell the truth.
          this.windows.delete(name);
          continue;
        }
        // An estimated window refills to its limit: keep counting from there, so callers that
        // waited together do not all rush the new window before a response says how full it is.
        window = {
          ...window,
          remaining: window.limit,
          inFlight: 0,
          cycleSeenAt: now,
          resetAt: now + window.windowMs,
        };
        this.windows.set(name, window);
      }
      if (window.remaining - window.inFlight <= reserve) {
        if (window.resetAt === undefined) {
          // The provider did not say when it refills: pause once, then let
          // one request probe and learn the truth from its headers.
          this.windows.delete(name);
          waitUntil = Math.max(waitUntil, now + UNKNOWN_RESET_PAUSE_MS);
        } else if (
          window.resetAt - now > this.options.maxWaitMs &&
          now - window.observedAt >= this.options.maxWaitMs
        ) {
          // Too long to wait for, and learnt longer ago than we would wait: let one request
          // probe, so a later answer corrects it (a provider may have reset early, or lied).
          this.windows.delete(name);
        } else waitUntil = Math.max(waitUntil, window.resetAt);
      }
    }
    return waitUntil;
  }
}

/**
 * Holds a request at the connection's rate gate until its quota allows it,
 * then teaches the gate what the answers said: the first answer settles the
 * request the gate counted, later redirect hops only inform it, and a request
 * that got no answer at all is given back.
 */
export function withRateGate(send: Send, gate: Gate, signal?: AbortSignal): Send {
  return async (outgoing: Outgoing): Promise<Exchange> => {
    let waits: number;
    try {
      // An in-process gate answers at once when it lets the request through: no promise to wait a turn for.
      const admitted = gate.acquire(outgoing.call ? outgoing.call.signal : signal);
      waits = typeof admitted === 'number' ? admitted : await admitted;
    } catch (error) {
      return { ok: false, error, stats: NO_STATS };
    }
    let result: Exchange;
    try {
      result = await send(outgoing);
    } catch (error) {
      await gate.abandon();
      return { ok: false, error, stats: NO_STATS };
    }
    const { answers } = result.stats;
    if (answers.length === 0) await gate.abandon();
    else {
      const observed = gate.observe(answers[0]);
      if (observed) await observed;
      for (let index = 1; index < answers.length; index += 1) {
        const learnt = gate.learn(answers[index]);
        if (learnt) await learnt;
      }
    }
    if (waits === 0) return result;
    return { ...result, stats: addStats(result.stats, { rateLimitWaits: waits }) };
  };
}
