import { describe, expect, it } from 'vitest';
import { startDeadline } from '../../../src/http/attempt-deadline.js';

const waitMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When each deadline's cancellation fired, in ms from the start (undefined: never). */
function firedAt(deadline: ReturnType<typeof startDeadline>, started: number) {
  const seen: { at?: number; reason?: unknown } = {};
  deadline.cancellation.onAbort((reason) => {
    seen.at = performance.now() - started;
    seen.reason = reason;
  });
  return seen;
}

describe('attempt deadlines on one shared timer', () => {
  it('fires a short deadline added after a long one on time, and the long one not before its time', async () => {
    const started = performance.now();
    const long = startDeadline(5_000);
    const short = startDeadline(40);
    const longSeen = firedAt(long, started);
    const shortSeen = firedAt(short, started);
    await waitMs(400);
    expect(short.expired).toBe(true);
    expect(shortSeen.at).toBeGreaterThanOrEqual(39);
    expect((shortSeen.reason as DOMException).name).toBe('TimeoutError');
    expect(long.expired).toBe(false);
    expect(longSeen.at).toBeUndefined();
    long.clear();
    short.clear();
  });

  it('never fires a deadline cleared before its time, and still fires the others in order', async () => {
    const started = performance.now();
    const cleared = startDeadline(30);
    const first = startDeadline(60);
    const second = startDeadline(90);
    const seen = [firedAt(cleared, started), firedAt(first, started), firedAt(second, started)];
    cleared.clear();
    await waitMs(400);
    expect(seen[0]?.at).toBeUndefined();
    expect(cleared.expired).toBe(false);
    expect(seen[1]?.at).toBeGreaterThanOrEqual(59);
    expect(seen[2]?.at).toBeGreaterThanOrEqual(seen[1]?.at ?? Number.POSITIVE_INFINITY);
    first.clear();
    second.clear();
  });

  it("aborts with the caller's reason, not as a timeout, and lets go of the caller's signal", async () => {
    const controller = new AbortController();
    const deadline = startDeadline(5_000, controller.signal);
    const seen = firedAt(deadline, performance.now());
    controller.abort(new Error('caller gave up'));
    expect(deadline.cancellation.aborted).toBe(true);
    expect(deadline.expired).toBe(false);
    expect((seen.reason as Error).message).toBe('caller gave up');
    deadline.clear();
    const late = startDeadline(5_000, AbortSignal.abort('already'));
    expect(late.cancellation.reason).toBe('already');
    late.clear();
  });
});
