import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Instructions a node command executes, from `perf stat` when the machine's
 * PMU counts them, else from valgrind's callgrind (a virtual machine such as
 * firecracker answers `<not supported>` to perf; callgrind counts what it
 * executes itself, 50 to 100 times slower than the program runs). A count
 * barely moves with load on a busy machine; a time does, so counted runs may
 * share the cores (`countAll`).
 *
 * Each tool writes its report to a file of its own (`perf stat -o`,
 * `valgrind --log-file`), so nothing the child prints on stderr can be taken
 * for the count. `TOOLSTEPS_BENCH_COUNTER=perf|callgrind|none` forces one
 * counter (or none) instead of detecting.
 */

const DETECT_TIMEOUT_MS = 60_000;
const OUTPUT_LIMIT = 1 << 20;

/**
 * Counts move from run to run because V8 seeds its string hashes afresh in
 * every process: `node -e 0` counted 499 to 507 M over seven runs under
 * callgrind, and the same five times to 0.01% with one fixed seed. Any seed
 * flag also makes Node refuse its built-in code cache (requiring http, url
 * and fs/promises: 517 to 530 M unseeded, 588 M seeded), which weighs on a
 * CLI that loads Node's own modules far more than on `node -e 0` (a cold
 * `--version` went from 1.05x to 1.10x): cold starts run unseeded and take a
 * median. A per-call count
 * (a part of one run, or two runs that load the same code) never sees it.
 */
export const SEEDED_NODE_FLAGS = ['--hash-seed=1', '--random-seed=1'];

/** Runs `command args` with a deadline; resolves what `read` makes of the scratch directory the tool reported in. */
function runCounted(label, command, args, { env, cwd, timeoutMs }, read) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-instructions-'));
  const finish = () => rmSync(scratch, { recursive: true, force: true });
  return new Promise((resolve, reject) => {
    const child = spawn(command, args(scratch), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = { stdout: '', stderr: '' };
    for (const stream of ['stdout', 'stderr']) {
      child[stream].setEncoding('utf8');
      // The tail is what explains a failure; a chatty child must not grow without bound.
      child[stream].on('data', (chunk) => {
        output[stream] = (output[stream] + chunk).slice(-OUTPUT_LIMIT);
      });
    }
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(deadline);
      reject(Object.assign(new Error(`${label} could not run: ${error.message}`), { code: error.code }));
    });
    child.once('close', (status, signal) => {
      clearTimeout(deadline);
      if (timedOut) return reject(new Error(`${label} did not finish within ${timeoutMs / 1000} s`));
      if (status !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with ${status}`;
        return reject(
          new Error(`${label} ${how}:\n${output.stderr.slice(-4000)}${output.stdout.slice(-2000)}`),
        );
      }
      try {
        resolve(read(scratch));
      } catch (error) {
        reject(error);
      }
    });
  }).finally(finish);
}

/** The `instructions` line of `perf stat -x ,` (value, unit, event, ...); throws on `<not supported>`. */
export function parsePerfInstructions(report) {
  for (const line of report.split('\n')) {
    const [value, , event] = line.split(',');
    if (!/^instructions(:[a-z]+)?$/.test(event ?? '')) continue;
    if (!/^\d+$/.test(value)) throw new Error(`perf stat counted no instructions: ${value || 'empty'}`);
    return Number(value);
  }
  throw new Error(`perf stat printed no instructions line:\n${report.slice(-2000)}`);
}

/** The `totals:` line of one callgrind profile (a dump or the file it writes at exit). */
export function parseCallgrindTotals(profile) {
  const found = /^totals: (\d+)$/m.exec(profile);
  if (!found) throw new Error(`callgrind profile has no "totals:" line:\n${profile.slice(0, 2000)}`);
  return Number(found[1]);
}

/**
 * The instructions of each part of a run split by `--dump-before`, in order:
 * `callgrind.out.1`, `.2`, ... are the dumps (each counts from the previous
 * one), `callgrind.out` what ran after the last.
 */
export function readCallgrindParts(scratch) {
  const dumps = readdirSync(scratch)
    .map((file) => /^callgrind\.out\.(\d+)$/.exec(file))
    .filter(Boolean)
    .map((found) => Number(found[1]))
    .sort((a, b) => a - b);
  return [...dumps.map((number) => `callgrind.out.${number}`), 'callgrind.out'].map((file) =>
    parseCallgrindTotals(readFileSync(path.join(scratch, file), 'utf8')),
  );
}

/**
 * valgrind's arguments to count `node ...args` split where it enters the
 * native function `splitBefore`, its dumps and log in `scratch`
 * (readCallgrindParts reads them).
 */
export function callgrindSplitArgs(scratch, splitBefore, args) {
  return [
    '--tool=callgrind',
    `--callgrind-out-file=${path.join(scratch, 'callgrind.out')}`,
    `--dump-before=${splitBefore}`,
    `--log-file=${path.join(scratch, 'callgrind.log')}`,
    process.execPath,
    ...args,
  ];
}

/** The `Collected : N` line callgrind writes to its log at exit. */
export function parseCallgrindCollected(log) {
  const found = /^==\d+== Collected : (\d+)$/m.exec(log);
  if (!found) throw new Error(`callgrind wrote no "Collected :" line:\n${log.slice(-2000)}`);
  return Number(found[1]);
}

const label = (tool, args) => `${tool} node ${args.join(' ')}`.slice(0, 300);

const COUNTERS = {
  perf: {
    name: 'perf stat',
    tool: 'perf',
    count: (args, { env = process.env, cwd, timeoutMs }) =>
      runCounted(
        label('perf stat', args),
        'perf',
        (scratch) => [
          'stat',
          ...['-x', ',', '-e', 'instructions', '-o', path.join(scratch, 'perf.csv')],
          '--',
          process.execPath,
          ...args,
        ],
        { env, cwd, timeoutMs },
        (scratch) => parsePerfInstructions(readFileSync(path.join(scratch, 'perf.csv'), 'utf8')),
      ),
  },
  callgrind: {
    name: 'callgrind',
    tool: 'valgrind',
    count: (args, { env = process.env, cwd, timeoutMs }) =>
      runCounted(
        label('callgrind', args),
        'valgrind',
        (scratch) => [
          '--tool=callgrind',
          '--callgrind-out-file=/dev/null',
          `--log-file=${path.join(scratch, 'callgrind.log')}`,
          process.execPath,
          ...args,
        ],
        { env, cwd, timeoutMs },
        (scratch) => parseCallgrindCollected(readFileSync(path.join(scratch, 'callgrind.log'), 'utf8')),
      ),
    /**
     * The instructions of each part of one run of `node ...args`, split
     * where the program enters the native function `splitBefore`: one
     * process counts what would otherwise take one run per part.
     */
    countParts: (args, { splitBefore, env = process.env, timeoutMs }) =>
      runCounted(
        label('callgrind', args),
        'valgrind',
        (scratch) => callgrindSplitArgs(scratch, splitBefore, args),
        { env, timeoutMs },
        readCallgrindParts,
      ),
  },
};

let detected;

/**
 * The first counter that counts `node --version` here (perf, then
 * callgrind), detected once per process: `{ name, count(args, { env,
 * cwd, timeoutMs }) }`, where `count` resolves the instructions of `node ...args`,
 * or `{ name: undefined, reason }` when neither counts.
 */
export function instructionCounter() {
  detected ??= detect();
  return detected;
}

async function detect() {
  const forced = process.env.TOOLSTEPS_BENCH_COUNTER;
  if (forced === 'none') return { name: undefined, reason: 'TOOLSTEPS_BENCH_COUNTER=none' };
  if (forced && !Object.hasOwn(COUNTERS, forced)) {
    throw new Error(`TOOLSTEPS_BENCH_COUNTER must be perf, callgrind or none, not ${JSON.stringify(forced)}`);
  }
  const reasons = [];
  for (const key of forced ? [forced] : Object.keys(COUNTERS)) {
    try {
      await COUNTERS[key].count(['--version'], { timeoutMs: DETECT_TIMEOUT_MS });
      return COUNTERS[key];
    } catch (error) {
      if (forced) throw error;
      // Short: the reason fills one table row.
      reasons.push(
        error.code === 'ENOENT'
          ? `${COUNTERS[key].tool} not found`
          : error.message.split('\n')[0].slice(0, 80),
      );
    }
  }
  return { name: undefined, reason: reasons.join('; ') };
}

/**
 * Runs `jobs` (functions returning a promise) `parallel` at a time, results
 * in the order of `jobs`: counts do not depend on what else runs, so counted
 * runs share the cores and the wall time shrinks with them.
 */
export async function countAll(jobs, parallel = os.availableParallelism()) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return results;
}

/** Millions, for a table cell. */
export const millions = (instructions) => `${(instructions / 1e6).toFixed(0)} M`;
