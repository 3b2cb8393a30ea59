import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './cpu-sides.mjs';
import { countAll, instructionCounter } from './instruction-count.mjs';

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
  // The CLI sits beside src/ in the build (build/cli/), not under it.
  CLI: /^(?!.*\/node_modules\/).*\/cli\//,
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
  return existsSync(bundled) ? bundled : path.join(build, 'cli/main.js');
}

/**
 * Cold starts of the CLI against a bare `node -e 0`, interleaved so a burst
 * of load on a shared machine hits every case alike: `--version`, `--help`,
 * `search zendesk` and a `run` of a read step against the sandbox, with the
 * command's code cache (every run after the first) and without (the first).
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
  // The first run of a command after an install or upgrade compiles the whole command tree, the
  // second also writes its code cache (cli/code-cached-require.ts): each such run gets a home of
  // its own with the connection, so no run, counted ones two at a time included, sees another's cache.
  const input = JSON.stringify({ ticket_id: 1 });
  const runArgs = [cli, 'run', 'ticketing.get_ticket_info', '--connection', 'bench', '--input', input];
  let freshHomes = 0;
  const withoutCodeCache = () => {
    const fresh = path.join(home, `fresh-${freshHomes++}`);
    mkdirSync(fresh, { mode: 0o700 });
    cpSync(path.join(home, 'connections'), path.join(fresh, 'connections'), { recursive: true });
    return { ...env, TOOLSTEPS_HOME: fresh };
  };
  const afterOneRun = () => {
    const once = withoutCodeCache();
    spawnSync(process.execPath, runArgs, { env: once });
    return once;
  };
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
    const cases = [
      { name: 'node -e 0', args: ['-e', '0'] },
      { name: 'toolsteps --version', args: [cli, '--version'], goal: 1.5 },
      { name: 'toolsteps --help', args: [cli, '--help'] },
      { name: 'toolsteps search zendesk', args: [cli, 'search', 'zendesk'], goal: 1.5 },
      { name: 'toolsteps run get_ticket_info', args: runArgs, goal: 2.5 },
      {
        name: 'toolsteps run get_ticket_info, first run (no code cache)',
        args: runArgs,
        shown: true,
        env: withoutCodeCache,
      },
      // Once per command and build, so no goal: the first run of a command compiles the whole command
      // tree (what every run did before the code cache), the second also writes its code cache.
      {
        name: 'toolsteps run get_ticket_info, second run (writes the cache)',
        args: runArgs,
        shown: true,
        env: afterOneRun,
      },
    ];
    /** The environment of one run of a case: the shared home, or a fresh one of its own. */
    const envOf = (entry) => entry.env?.() ?? env;
    // Also the warm-up: the first two runs of each command make the code cache the timed runs read.
    const missing = cases.filter((entry) =>
      [0, 1].some(() => spawnSync(process.execPath, entry.args, { env: envOf(entry) }).status !== 0),
    );
    const present = cases.filter((entry) => !missing.includes(entry));
    const samples = present.map(() => []);
    for (let run = 0; run < runs; run += 1) {
      for (const [index, entry] of present.entries()) samples[index].push(runNode(entry.args, envOf(entry)));
    }
    const baseline = median(samples[0]);
    const measured = present.map((entry, index) => {
      const ms = median(samples[index]);
      // Listed without the code cache: through it, the command tree is read as a file and run as a
      // vm script, which the loader hook does not see; the files a command needs are the same.
      const listing = { ...envOf(entry), TOOLSTEPS_CODE_CACHE: '0' };
      const files = entry.args[0] === '-e' ? [] : loadedFiles(entry.args, listing, home);
      const heavy = files.filter((url) => HEAVY.some((pattern) => pattern.test(url))).length;
      return { ...entry, ms, ratio: ms / baseline, files: files.length, heavy };
    });
    const instructions =
      instructionRuns > 0 ? await countInstructions(present, envOf, instructionRuns) : undefined;
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
async function countInstructions(cases, envOf, runs) {
  const counter = await instructionCounter();
  if (!counter.count) return { reason: counter.reason };
  const jobs = [];
  for (let run = 0; run < runs; run += 1) {
    for (const entry of cases) {
      jobs.push(() => counter.count(entry.args, { env: envOf(entry), timeoutMs: COUNTED_RUN_TIMEOUT_MS }));
    }
  }
  const counts = await countAll(jobs);
  const samples = cases.map((_, index) => counts.filter((_, job) => job % cases.length === index));
  const perCase = samples.map(median);
  const spread = Math.max(
    ...samples.map((values, index) => (Math.max(...values) - Math.min(...values)) / perCase[index]),
  );
  return { counter: counter.name, runs, perCase, spread };
}
