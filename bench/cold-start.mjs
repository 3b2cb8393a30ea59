#!/usr/bin/env node
/**
 * Cold start of the CLI against a bare `node -e 0`, measured in one run on the
 * same machine (issue 14): `--version`, `search zendesk`, and a first `run` of a
 * read step (ticketing.get_ticket_info) against a sandbox in another process, as
 * a provider would be. Cases are interleaved so a burst of load on a shared
 * machine hits every case alike; the table shows medians, the ratio to
 * `node -e 0`, the goal, and how many files each case loads (counted in one
 * extra run through a loader hook, so the hook never slows the timed runs).
 *
 *   node bench/cold-start.mjs [--runs 15] [--root DIR] [--build DIR]
 *
 * `--root` benchmarks another checkout's build (its dist/), e.g. main before a
 * change; `--build` names the compiled tree itself (the smoke test passes its
 * freshly transpiled sources). Plain node, no vitest: the harness must not be
 * part of the figure. The ratios are a report, not a verdict: the script exits
 * 0 whatever they are, and 1 only when a case cannot run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

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
const root = path.resolve(values.root);
const build = path.resolve(values.build ?? path.join(root, 'dist'));
const cli = path.join(build, 'src/cli/main.js');
const countHook = path.join(here, 'startup/count-loaded-modules.mjs');
const home = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-cold-start-'));
const TOKEN_VARIABLE = 'TOOLSTEPS_BENCH_TOKEN';

/** Starts the sandbox in a child process and returns its ticketing base URL, a token and a ticket id. */
async function startSandboxProcess() {
  const script = `
    import { startSandbox } from ${JSON.stringify(pathToFileURL(path.join(build, 'sandbox/index.js')).href)};
    const sandbox = await startSandbox({ port: 0, requestLogLimit: 0 });
    const token = sandbox.ticketing.issueTokens('acme').access_token;
    const baseUrl = sandbox.baseUrl('ticketing', 'acme');
    const page = await fetch(baseUrl + '/api/v2/tickets.json', { headers: { authorization: 'Bearer ' + token } });
    const ticketId = (await page.json()).tickets[0].id;
    process.stdout.write(JSON.stringify({ baseUrl, token, ticketId }) + '\\n');
    process.stdin.on('end', () => sandbox.close().then(() => process.exit(0)));
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    let out = '';
    const deadline = setTimeout(() => reject(new Error('the sandbox did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('\n')) return;
      clearTimeout(deadline);
      resolve(JSON.parse(out));
    });
  });
  return { ...ready, stop: () => child.stdin.end() };
}

function runNode(args, extraEnv = {}) {
  const env = { ...process.env, TOOLSTEPS_HOME: home, NO_COLOR: '1', ...extraEnv };
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited with ${result.status}:\n${result.stderr}${result.stdout}`);
  }
  return ms;
}

/** The distinct files one run of the case loads, read from the hook's log. */
function loadedFiles(args, env) {
  const log = path.join(home, `modules-${process.hrtime.bigint()}.log`);
  runNode(['--import', pathToFileURL(countHook).href, ...args], { ...env, TOOLSTEPS_MODULE_LOG: log });
  const urls = new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean));
  for (const url of urls) if (url.startsWith(pathToFileURL(here).href)) urls.delete(url);
  return [...urls];
}

const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Files a startup path should not need unless its command uses them. */
const HEAVY = [
  /\/sandbox\//,
  /\/cli\/demo\//,
  /csv-parse/,
  /\/undici\//,
  /@modelcontextprotocol/,
  /\/node_modules\/ai\//,
];

const sandbox = await startSandboxProcess();
try {
  const env = { [TOKEN_VARIABLE]: sandbox.token };
  runNode(
    [cli, 'connections', 'add', 'ticketing', '--id', 'bench', '--subdomain', 'acme'].concat([
      '--base-url',
      sandbox.baseUrl,
      '--access-token-env',
      TOKEN_VARIABLE,
    ]),
    env,
  );
  const input = JSON.stringify({ ticket_id: sandbox.ticketId });
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
  // A build from before a case existed (an old --root) reports it as missing instead of failing.
  const missing = cases.filter(
    (entry) =>
      spawnSync(process.execPath, entry.args, { env: { ...process.env, TOOLSTEPS_HOME: home, ...env } })
        .status !== 0,
  );
  for (const entry of missing) cases.splice(cases.indexOf(entry), 1);
  const samples = cases.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    for (const [index, entry] of cases.entries()) samples[index].push(runNode(entry.args, env));
  }
  const baseline = median(samples[0]);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(
    `cold start, ${runs} runs each, interleaved; ${cpu} x${os.cpus().length}, node ${process.version}, load ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}\n\n`,
  );
  const rows = [['case', 'median ms', 'ratio', 'goal', 'result', 'files', 'heavy files']];
  cases.forEach((entry, index) => {
    const ms = median(samples[index]);
    const ratio = ms / baseline;
    const files = entry.args[0] === '-e' ? [] : loadedFiles(entry.args, env);
    const heavy = files.filter((url) => HEAVY.some((pattern) => pattern.test(url))).length;
    rows.push([
      entry.name,
      ms.toFixed(1),
      `${ratio.toFixed(2)}x`,
      entry.goal ? `<= ${entry.goal}x` : '',
      entry.goal ? (ratio <= entry.goal ? 'pass' : 'FAIL') : '',
      String(files.length),
      String(heavy),
    ]);
  });
  for (const entry of missing) rows.push([entry.name, 'fails in this build', '', '', '', '', '']);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) {
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}\n`);
  }
} finally {
  sandbox.stop();
  rmSync(home, { recursive: true, force: true });
}
