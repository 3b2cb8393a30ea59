import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countAll, instructionCounter, SEEDED_NODE_FLAGS } from './instruction-count.mjs';
import { PER_CALL_CASES } from './per-call.mjs';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'per-call-child.mjs');
/** The native function per-call-child.mjs calls at each mark (os.getPriority()). */
const MARK_FUNCTION = 'uv_os_getpriority';
/** A counted run takes about a minute under callgrind here, two at a time; thirty times that is stuck. */
const COUNTED_RUN_TIMEOUT_MS = 1_800_000;
const NATIVE_RUN_TIMEOUT_MS = 120_000;
/** Each case's sides (per-call-child.mjs): the invocation, bare fetch and a bare dispatcher.request. */
const SIDES = ['ours', 'bare', 'request'];
/** The case the store rows measure, which also runs with the default file store and each shared store. */
const STORE_CASE = 'get_ticket_info';
/** The store case's further sides: a store each, and each shared store's baseline (per-call-child.mjs). */
const STORE_SIDES = ['file', 'redis', 'request+redis', 'postgres', 'request+postgres'];
/** per-call-child.mjs's exit code for a shared store that does not answer. */
const UNAVAILABLE_EXIT = 3;
/**
 * V8 flags of every counted run, ours and the baseline alike: seeded (see
 * SEEDED_NODE_FLAGS); a lower interrupt budget (default 67584) so TurboFan
 * reaches the code a call runs once within some hundreds of calls instead of
 * thousands (300 calls in at the default it was still compiling, more than
 * half of what the next calls counted), which keeps a run to about a minute
 * under callgrind; and one thread (`--single-threaded`: V8 compiles and
 * collects garbage on the main thread, the same work), so when that work
 * happens does not hang on thread scheduling (without it two runs of the
 * same calls differed by up to 2x here).
 */
const STEADY_NODE_FLAGS = [...SEEDED_NODE_FLAGS, '--interrupt-budget=8192', '--single-threaded'];

/**
 * Instructions per warm call of each per-call case: ours (the memory store),
 * the bare fetch baseline and the bare dispatcher.request one (the same
 * recorded requests, per-call.mjs), and for get_ticket_info ours with the
 * file store too, each case and side in a process of its own (per-call-child.mjs): `warmup` calls, then `calls`
 * counted ones. Callgrind splits one run at the child's marks, so the count
 * between them is those calls alone; a counter that cannot (perf) counts a
 * run with `calls` and one with none, and the difference is the calls:
 * (count(calls) - count(0)) / calls. The sandbox serves every run natively
 * first, so no counted run meets it cold. get_ticket_info runs with each
 * store too (`stores`: `file`, `redis`, `postgres`, and the shared stores'
 * baselines `request+redis`, `request+postgres`, a bare round trip before
 * the bare requests); a shared store that does not answer is left out and
 * named in `skipped`. Resolves `{ counter, split, runs, wallMs, skipped,
 * cases: [{ name, ours, bare, request, stores? }] }`, or `{ reason }` without a counter.
 */
export async function measurePerCallInstructions(build, sandbox, { warmup, calls }) {
  const counter = await instructionCounter();
  if (!counter.count) return { reason: counter.reason };
  const allSides = PER_CALL_CASES.flatMap((entry) =>
    [...SIDES, ...(entry.name === STORE_CASE ? STORE_SIDES : [])].map((side) => ({ entry, side })),
  );
  const skipped = [];
  const sides = [];
  // The native warm-up run of each side also finds a shared store that does not answer: its sides are left out.
  for (const item of allSides) {
    const warm = spawnSync(process.execPath, argsOf(item, 0), {
      encoding: 'utf8',
      timeout: NATIVE_RUN_TIMEOUT_MS,
    });
    if (warm.status === UNAVAILABLE_EXIT) {
      skipped.push(`${item.side}: ${warm.stderr.trim().split('\n').at(-1)}`);
      continue;
    }
    if (warm.status !== 0) {
      throw new Error(`warming the sandbox failed: ${warm.error?.message ?? warm.stderr.slice(-4000)}`);
    }
    sides.push(item);
  }
  function argsOf({ entry, side }, callCount) {
    return [child, build, JSON.stringify(sandbox), entry.name, side, String(warmup), String(callCount)];
  }
  const runsOf = (callCounts) =>
    sides.flatMap((item) => callCounts.map((callCount) => argsOf(item, callCount)));
  const started = performance.now();
  const { perCall, runs } = await countPerCall(counter, runsOf, calls);
  const wallMs = performance.now() - started;
  return {
    counter: counter.name,
    split: Boolean(counter.countParts),
    runs,
    wallMs,
    skipped,
    cases: PER_CALL_CASES.map((entry) => {
      const of = (side) => {
        const index = sides.findIndex((item) => item.entry === entry && item.side === side);
        return index < 0 ? undefined : perCall[index];
      };
      const stores = Object.fromEntries(STORE_SIDES.map((side) => [side, of(side)]));
      return {
        name: entry.name,
        ours: of('ours'),
        bare: of('bare'),
        request: of('request'),
        ...(entry.name === STORE_CASE ? { stores } : {}),
      };
    }),
  };
}

/**
 * Instructions per counted call of each run `runsOf([calls])` lists (child
 * arguments whose last is the number of counted calls): callgrind splits one
 * run at the child's marks, so the count between them is those calls alone;
 * a counter that cannot (perf) counts each run with `calls` and with none,
 * and the difference is the calls. Resolves `{ perCall, runs }`, one figure
 * per run in order and how many processes were counted.
 */
export async function countPerCall(counter, runsOf, calls) {
  if (counter.countParts) {
    const runs = runsOf([calls]);
    const parts = await countAll(
      runs.map(
        (args) => () =>
          counter.countParts([...STEADY_NODE_FLAGS, ...args], {
            splitBefore: MARK_FUNCTION,
            timeoutMs: COUNTED_RUN_TIMEOUT_MS,
          }),
      ),
    );
    for (const [index, found] of parts.entries()) {
      if (found.length !== 3)
        throw new Error(`${runs[index].join(' ').slice(-200)} split into ${found.length} parts, not 3`);
    }
    return { perCall: parts.map((found) => found[1] / calls), runs: runs.length };
  }
  const runs = runsOf([0, calls]);
  const counts = await countAll(
    runs.map(
      (args) => () => counter.count([...STEADY_NODE_FLAGS, ...args], { timeoutMs: COUNTED_RUN_TIMEOUT_MS }),
    ),
  );
  const perCall = counts
    .filter((_, index) => index % 2 === 1)
    .map((count, index) => (count - counts[2 * index]) / calls);
  return { perCall, runs: runs.length };
}
