import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countAll, instructionCounter } from './instruction-count.mjs';
import { median } from './per-call.mjs';

const bench = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const countHook = path.join(bench, 'startup/count-loaded-modules.mjs');
const TOKEN_VARIABLE = 'TOOLSTEPS_BENCH_TOKEN';
/** A cold start takes 4 to 9 s under callgrind here, two at a time; one ten times that long is stuck. */
const COUNTED_RUN_TIMEOUT_MS = 120_000;

/** Files a startup path should not need unless its command uses them. */
export const HEAVY = [
  /\/sandbox\//,
  /\/cli\/demo\//,
  /csv-parse/,
  /\/undici\//,
  /@modelcontextprotocol/,
  /\/node_modules\/ai\//,
];

/** What `import 'toolsteps'` must not load (issue 14). */
export const NOT_IN_THE_LIBRARY = {
  CLI: /\/src\/cli\//,
  commander: /\/node_modules\/commander\//,
  'csv-parse': /\/node_modules\/csv-parse\//,
  sandbox: /\/sandbox\//,
  demo: /\/demo\//,
};

function runNode(args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited with ${result.status}:\n${result.stderr}${result.stdout}`);
  }
  return ms;
}

/** The distinct files one run loads, read from the loader hook's log (benchmark files left out). */
export function loadedFiles(args, env, scratch) {
  const log = path.join(scratch, `modules-${process.hrtime.bigint()}.log`);
  runNode(['--import', pathToFileURL(countHook).href, ...args], { ...env, TOOLSTEPS_MODULE_LOG: log });
  const urls = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
  for (const url of urls) if (url.startsWith(pathToFileURL(bench).href)) urls.delete(url);
  return [...urls];
}

/**
 * The CLI as the package ships it: the one-file bundle the build makes
 * (package.json's bin), or, for a build from before the bundle (`--build` of
 * an old tree, or freshly compiled sources), the unbundled main module.
 */
export function shippedCli(build) {
  const bundled = path.join(build, 'cli/toolsteps.cjs');
  return existsSync(bundled) ? bundled : path.join(build, 'src/cli/main.js');
}

/**
 * Cold starts of the CLI against a bare `node -e 0`, interleaved so a burst
 * of load on a shared machine hits every case alike: `--version`, `--help`,
 * `search zendesk` and a first `run` of a read step against the sandbox.
 * Returns each case's median, ratio to `node -e 0`, goal and loaded files;
 * a case a build cannot run (an old `--root`) is reported as missing.
 *
 * With `instructionRuns`, after the timed runs, each case also gets the
 * median instructions of that many counted runs and their ratio to
 * `node -e 0`'s (see instruction-count.mjs); `instructions` names the counter
 * and the spread seen, or why nothing was counted.
 */
export async function measureColdStart(build, sandbox, { runs, instructionRuns = 0 }) {
  const cli = shippedCli(build);
  const home = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-cold-start-'));
  const env = { ...process.env, TOOLSTEPS_HOME: home, NO_COLOR: '1', [TOKEN_VARIABLE]: sandbox.token };
  try {
    runNode(
      [cli, 'connections', 'add', 'ticketing', '--id', 'bench', '--subdomain', 'acme'].concat([
        '--base-url',
        sandbox.ticketing,
        '--access-token-env',
        TOKEN_VARIABLE,
      ]),
      env,
    );
    const input = JSON.stringify({ ticket_id: 1 });
    const cases = [
      { name: 'node -e 0', args: ['-e', '0'] },
      { name: 'toolsteps --version', args: [cli, '--version'], goal: 1.5 },
      { name: 'toolsteps --help', args: [cli, '--help'] },
      { name: 'toolsteps search zendesk', args: [cli, 'search', 'zendesk'], goal: 1.5 },
      {
        name: 'toolsteps run get_ticket_info',
        args: [cli, 'run', 'ticketing.get_ticket_info', '--connection', 'bench', '--input', input],
        goal: 2.5,
      },
    ];
    const missing = cases.filter((entry) => spawnSync(process.execPath, entry.args, { env }).status !== 0);
    const present = cases.filter((entry) => !missing.includes(entry));
    const samples = present.map(() => []);
    for (let run = 0; run < runs; run += 1) {
      for (const [index, entry] of present.entries()) samples[index].push(runNode(entry.args, env));
    }
    const baseline = median(samples[0]);
    const measured = present.map((entry, index) => {
      const ms = median(samples[index]);
      const files = entry.args[0] === '-e' ? [] : loadedFiles(entry.args, env, home);
      const heavy = files.filter((url) => HEAVY.some((pattern) => pattern.test(url))).length;
      return { ...entry, ms, ratio: ms / baseline, files: files.length, heavy };
    });
    const instructions =
      instructionRuns > 0 ? await countInstructions(present, env, instructionRuns) : undefined;
    if (instructions?.perCase) {
      for (const [index, entry] of measured.entries()) {
        entry.instructions = instructions.perCase[index];
        entry.instructionRatio = entry.instructions / instructions.perCase[0];
      }
    }
    const library = pathToFileURL(path.join(build, 'src/index.js')).href;
    const libraryFiles = loadedFiles(
      ['--input-type=module', '-e', `await import(${JSON.stringify(library)});`],
      env,
      home,
    );
    const forbidden = libraryFiles.filter((url) =>
      Object.values(NOT_IN_THE_LIBRARY).some((pattern) => pattern.test(url)),
    );
    return {
      cli: path.basename(cli),
      baselineMs: baseline,
      ...(instructions ? { instructions } : {}),
      cases: measured,
      missing: missing.map((entry) => entry.name),
      forbidden,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Median instructions of each case over `runs` counted runs, interleaved,
 * `{ counter, perCase, spread }` where `spread` is the widest (max - min) /
 * median of any case; `{ reason }` when this machine has no counter.
 */
async function countInstructions(cases, env, runs) {
  const counter = await instructionCounter();
  if (!counter.count) return { reason: counter.reason };
  const jobs = [];
  for (let run = 0; run < runs; run += 1) {
    for (const entry of cases)
      jobs.push(() => counter.count(entry.args, { env, timeoutMs: COUNTED_RUN_TIMEOUT_MS }));
  }
  const counts = await countAll(jobs);
  const samples = cases.map((_, index) => counts.filter((_, job) => job % cases.length === index));
  const perCase = samples.map(median);
  const spread = Math.max(
    ...samples.map((values, index) => (Math.max(...values) - Math.min(...values)) / perCase[index]),
  );
  return { counter: counter.name, runs, perCase, spread };
}
