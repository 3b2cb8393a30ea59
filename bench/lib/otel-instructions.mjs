import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './cpu-sides.mjs';
import { instructionCounter } from './instruction-count.mjs';
import { PER_CALL_CASES } from './per-call.mjs';
import { countPerCall } from './per-call-instructions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, 'per-call-child.mjs');
/** Without the peer: the loader that makes `@opentelemetry/*` unimportable, as otel-figures.mjs runs it. */
const ABSENT = ['--import', path.join(here, 'hide-opentelemetry.mjs')];
/** With it: a loader that passes every import on, so both sides pay for a loader alike. */
const INSTALLED = ['--import', path.join(here, 'same-loader.mjs')];

/**
 * The otel goal's figure as instructions (issue 39): get_ticket_info's
 * instructions per warm call, ours, with `@opentelemetry/api` not importable
 * and with it installed and no SDK registered, `processes` processes a side
 * (per-call-child.mjs, counted as the per-call instruction figures are),
 * the sides alternating (not installed, installed, not installed, ...). One
 * process a side cannot hold the goal: two processes of the same side
 * differed by some 140 K instructions a call, nearly all of it when V8's
 * garbage collector and optimising compiler ran in the counted window
 * (docs/benchmarks.md), so the figure is each side's median and the spread
 * of each side is printed as the noise floor. Resolves `{ counter, case,
 * absent, api }` (instructions per call of each process, in order), or
 * `{ reason }` without a counter.
 */
export async function measureOtelInstructions(build, sandbox, { warmup, calls, processes }) {
  const counter = await instructionCounter();
  if (!counter.count) return { reason: counter.reason };
  const entry = PER_CALL_CASES[0];
  const argsOf = (nodeArgs, callCount) => [
    ...nodeArgs,
    child,
    build,
    JSON.stringify(sandbox),
    entry.name,
    'ours',
    String(warmup),
    String(callCount),
  ];
  // The sandbox serves both sides natively first, so no counted run meets it cold.
  for (const nodeArgs of [ABSENT, INSTALLED]) {
    const warm = spawnSync(process.execPath, argsOf(nodeArgs, 0), { encoding: 'utf8', timeout: 120_000 });
    if (warm.status !== 0) throw new Error(`warming the sandbox failed: ${warm.stderr.slice(-4000)}`);
  }
  // Alternating: counted runs go two at a time (countAll), so each pair is one of each side.
  const runsOf = (callCounts) =>
    Array.from({ length: processes }).flatMap(() =>
      [ABSENT, INSTALLED].flatMap((nodeArgs) => callCounts.map((callCount) => argsOf(nodeArgs, callCount))),
    );
  const { perCall } = await countPerCall(counter, runsOf, calls);
  return {
    counter: counter.name,
    case: entry.name,
    absent: perCall.filter((_, index) => index % 2 === 0),
    api: perCall.filter((_, index) => index % 2 === 1),
  };
}

const spreadOf = (counts) => Math.max(...counts) - Math.min(...counts);
const thousands = (instructions) => `${(instructions / 1e3).toFixed(1)} K`;
const signed = (value, text) => `${value >= 0 ? '+' : ''}${text}`;

/**
 * The instruction row of the otel goal: the median instructions a call of
 * each side, their difference, and that difference in microseconds at the
 * rate the CPU row measured for the same call in this run (`cpuUsPerCall`,
 * the installed side's median CPU a call, over its instructions a call).
 * Each side's spread (largest less smallest process) is the noise floor: a
 * difference within it is not told apart from none. The goal: at most
 * +5 us a call.
 */
export function otelInstructionRow(row, counted, cpuUsPerCall) {
  if (!counted.counter) {
    row(
      '  ... the same, instructions per call (--instructions)',
      `not measured (${counted.reason})`,
      '',
      '',
      '',
    );
    return;
  }
  const api = median(counted.api);
  const absent = median(counted.absent);
  const difference = api - absent;
  const floor = Math.max(spreadOf(counted.api), spreadOf(counted.absent));
  const usPerInstruction = cpuUsPerCall / api;
  const us = (instructions) => `${(instructions * usPerInstruction).toFixed(1)} us`;
  row(
    `  ... the same, instructions per call (${counted.counter}, median of ${counted.api.length} processes a side, alternating), ${counted.case}`,
    `${thousands(api)} (spread ${thousands(spreadOf(counted.api))})`,
    `${thousands(absent)} (spread ${thousands(spreadOf(counted.absent))}; not installed)`,
    `${signed(difference, thousands(difference))} = ${signed(difference, us(difference))}`,
    '<= +5 us',
    difference * usPerInstruction <= 5,
  );
  row(
    `  ... noise floor (the larger spread): ${thousands(floor)} = ${us(floor)}; the difference is ${Math.abs(difference) <= floor ? 'within' : 'outside'} it; ${usPerInstruction.toFixed(5)} us an instruction (the CPU row's ${cpuUsPerCall.toFixed(0)} us a call)`,
    '',
    '',
    '',
    '',
  );
}
