#!/usr/bin/env node
/**
 * Cold start of the CLI against a bare `node -e 0`, measured in one run on the
 * same machine (issue 14): `--version`, `search zendesk`, and a first `run` of a
 * read step (ticketing.get_ticket_info) against a sandbox in another process, as
 * a provider would be. The table shows medians, the ratio to `node -e 0`, the
 * goal, and how many files each case loads (counted in one extra run through a
 * loader hook, so the hook never slows the timed runs). `npm run bench` shows
 * the same cases beside every other figure of issue 14.
 *
 *   node bench/cold-start.mjs [--runs 15] [--root DIR] [--build DIR]
 *
 * `--root` benchmarks another checkout's build (its dist/), e.g. main before a
 * change; `--build` names the compiled tree itself (the smoke test passes its
 * freshly transpiled sources). The ratios are a report, not a verdict: the
 * script exits 0 whatever they are, and 1 only when a case cannot run.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureColdStart } from './lib/cold-start.mjs';
import { startSandboxProcess } from './lib/sandbox-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    root: { type: 'string', default: path.dirname(here) },
    build: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a positive integer, not ${values.runs}`);
const build = path.resolve(values.build ?? path.join(path.resolve(values.root), 'dist'));

const sandbox = await startSandboxProcess(build);
try {
  const { cases, missing } = measureColdStart(build, sandbox, runs);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  process.stdout.write(
    `cold start, ${runs} runs each, interleaved; ${cpu} x${os.cpus().length}, node ${process.version}, load ${load}\n\n`,
  );
  const rows = [['case', 'median ms', 'ratio', 'goal', 'result', 'files', 'heavy files']];
  for (const entry of cases) {
    rows.push([
      entry.name,
      entry.ms.toFixed(1),
      `${entry.ratio.toFixed(2)}x`,
      entry.goal ? `<= ${entry.goal}x` : '',
      entry.goal ? (entry.ratio <= entry.goal ? 'pass' : 'FAIL') : '',
      String(entry.files),
      String(entry.heavy),
    ]);
  }
  for (const name of missing) rows.push([name, 'fails in this build', '', '', '', '', '']);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) {
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}\n`);
  }
} finally {
  await sandbox.stop();
}
