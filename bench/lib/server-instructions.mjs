import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MCP_BASELINES, MCP_SIDES } from './edge-rows.mjs';
import {
  callgrindSplitArgs,
  instructionCounter,
  readCallgrindParts,
  SEEDED_NODE_FLAGS,
} from './instruction-count.mjs';
import { runDeliveries, SECRET, subscription } from './intake-figures.mjs';
import { bareIntakeArgs, waitFor } from './intake-servers.mjs';
import {
  httpClient,
  startBareStdioChild,
  startServerChild,
  toolName,
  warmLikeTheServer,
} from './mcp-figures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The native function each mark enters (mark-on-signal.cjs, mcp-server-child.mjs' `mark`): os.getPriority(). */
const MARK_FUNCTION = 'uv_os_getpriority';
/**
 * V8 flags of every counted server: seeded (SEEDED_NODE_FLAGS), and one
 * thread, so when V8 compiles and collects does not hang on thread
 * scheduling (the per-call counts' reason, per-call-instructions.mjs). The
 * interrupt budget stays V8's own: the CPU rows measure a young process, and
 * so do these.
 */
const COUNTED_NODE_FLAGS = [...SEEDED_NODE_FLAGS, '--single-threaded'];
const LONG_TIMEOUTS = ['--headers-timeout', '600', '--request-timeout', '600'];
/** A counted server took up to 16 minutes at a load average of 20 on the 2-core machine. */
const COUNTED_RUN_MS = 3_600_000;

/** `node ...nodeArgs` under callgrind, split at each mark; the dumps land in `scratch`. */
export function underCallgrind(scratch) {
  return (nodeArgs) => [
    'valgrind',
    callgrindSplitArgs(scratch, MARK_FUNCTION, [...COUNTED_NODE_FLAGS, ...nodeArgs]),
  ];
}

/** A server child under callgrind that marks on SIGUSR2 (mark-on-signal.cjs); `ready` reads its stderr for its URL. */
async function countedServer(nodeArgs, env, ready) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-server-instructions-'));
  const [command, args] = underCallgrind(scratch)(['-r', path.join(here, 'mark-on-signal.cjs'), ...nodeArgs]);
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-1 << 20);
  });
  // What a refused start prints (the CLI's errors go to stdout), and the events' lines otherwise.
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    stdout = (stdout + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const alive = (what) => () => {
    if (child.exitCode !== null)
      throw new Error(`${what}: the server exited:\n${stderr.slice(-4000)}${stdout}`);
    return true;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor(
      () => alive('starting')() && ready(stderr) !== undefined,
      'a counted server to listen',
      COUNTED_RUN_MS,
    );
  } catch (error) {
    await stop();
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  let marks = 0;
  return {
    url: ready(stderr),
    mark: async () => {
      marks += 1;
      child.kill('SIGUSR2');
      await waitFor(() => alive('marking')() && stderr.includes(`mark ${marks}\n`), 'a mark', COUNTED_RUN_MS);
    },
    /** Stops the server; resolves the instructions between its marks, in order. */
    parts: async () => {
      await stop();
      return readCallgrindParts(scratch).slice(1, -1);
    },
    /** Stops the server if it runs, and removes its counts. */
    remove: async () => {
      await stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** A module of `build`, at the first of `relatives` its tree has: files moved in issue 35, and 2672ba1's build runs too. */
export async function buildModule(build, ...relatives) {
  const file = relatives
    .map((relative) => path.join(build, relative))
    .find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`${build} has none of ${relatives.join(', ')}`);
  return import(pathToFileURL(file).href);
}

/** The file subscription store of `build`, where its tree keeps it. */
export async function fileSubscriptionStore(build) {
  const module = await buildModule(
    build,
    'src/store/files/file-subscription-store.js',
    'src/store/subscriptions/file-subscription-store.js',
  );
  return module.FileSubscriptionStore;
}

/** Answers other than 200, of one run's deliveries (the bare server answers a delivery sent again as it did the first time). */
const notAnswered = (byAnswer) =>
  Object.entries(byAnswer)
    .filter(([answer]) => !answer.startsWith('200'))
    .reduce((sum, [, ids]) => sum + ids.length, 0);

/** Sends a window of the intake row's deliveries: `rounds` of `count` fresh ones and a tenth again; resolves how many were not answered 200. */
async function deliveryWindow(url, label, sizes, resent) {
  let refused = 0;
  for (let round = 0; round < sizes.rounds; round += 1) {
    const run = await runDeliveries(url, `${label}${round}`, sizes, resent);
    refused += notAnswered(run.byAnswer) + notAnswered(run.again);
  }
  return refused;
}

/** One server's instructions per delivery over the young window (the CPU row's) and a warm one after it. */
async function countIntakeServer(server, label, sizes) {
  const deliveries = sizes.rounds * sizes.count * 1.1;
  const resent = { count: 0 };
  await server.mark();
  let refused = await deliveryWindow(server.url, `${label}young`, sizes, resent);
  await server.mark();
  refused += await deliveryWindow(server.url, `${label}warm`, sizes, resent);
  await server.mark();
  const parts = await server.parts();
  if (refused) throw new Error(`${refused} deliveries to the counted ${label} server were not answered 200`);
  return { young: parts[0] / deliveries, warm: parts[1] / deliveries, resent: resent.count };
}

/**
 * Instructions per delivery of `toolsteps listen` (file stores, as the
 * intake CPU row runs it) and of the bare HMAC server, each counted under
 * callgrind in the server process alone: split at a mark before the row's
 * deliveries (`rounds` x (`count` + a tenth again), `concurrency` in
 * flight), one after them (the young process the CPU row measures) and one
 * after as many again (warm). Resolves `{ counter, ours, bare }` (each
 * `{ young, warm }`), or `{ reason }` without callgrind.
 */
export async function measureIntakeInstructions(build, sizes) {
  const counter = await instructionCounter();
  if (!counter.countParts) return { reason: counter.reason ?? `${counter.name} cannot split a run` };
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-bench-listen-'));
  try {
    const FileSubscriptionStore = await fileSubscriptionStore(build);
    await new FileSubscriptionStore(home).put(subscription());
    const env = { ...process.env, TOOLSTEPS_HOME: home };
    for (const name of ['TOOLSTEPS_REDIS_URL', 'TOOLSTEPS_DATABASE_URL', 'TOOLSTEPS_TENANT'])
      delete env[name];
    const listening = (stderr) => {
      const line = stderr.split('\n').find((text) => text.includes('"listening"'));
      return line && JSON.parse(line).listening.url;
    };
    const listen = countedServer(
      // Its timeouts the most it takes (600 s): under callgrind on a loaded machine, 16 deliveries in flight took the
      // last one past the default 10 s for its headers. Timers' lengths cost no instructions.
      [path.join(build, 'cli/toolsteps.cjs'), 'listen', '--port', '0', '--json', ...LONG_TIMEOUTS],
      env,
      listening,
    );
    const bare = countedServer(bareIntakeArgs(SECRET), process.env, (stderr) => {
      const port = /port (\d+)/.exec(stderr)?.[1];
      return port && `http://127.0.0.1:${port}`;
    });
    // Counts do not depend on what else runs: both servers start at once, then take turns.
    const started = await Promise.allSettled([listen, bare]);
    const failed = started.find((result) => result.status === 'rejected');
    const servers = started.map((result) => result.value).filter(Boolean);
    try {
      if (failed) throw failed.reason;
      const ours = await countIntakeServer(servers[0], 'ours', sizes);
      const bareCount = await countIntakeServer(servers[1], 'bare', sizes);
      return { counter: counter.name, ours, bare: bareCount };
    } finally {
      await Promise.all(servers.map((server) => server.remove()));
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * Instructions per tools/call of get_ticket_info in the MCP server process
 * (mcp-server-child.mjs under callgrind): over Streamable HTTP, as many
 * direct invokes in that process, over stdio, and to the bare node:http
 * server answering from a direct invoke: `warmup` of each first, then
 * `calls` of each, split at marks; then the bare stdio child
 * (mcp-bare-stdio-child.mjs) the same way, under callgrind on its own.
 * Resolves `{ counter, http, direct, stdio, bare, stdioBare }`, or
 * `{ reason }` without callgrind.
 */
export async function measureMcpInstructions(build, sandbox, { warmup, calls }) {
  const counter = await instructionCounter();
  if (!counter.countParts) return { reason: counter.reason ?? `${counter.name} cannot split a run` };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-server-instructions-'));
  try {
    const server = await startServerChild(build, sandbox, 8, underCallgrind(scratch));
    let args;
    try {
      args = { name: await toolName(server.rpc), arguments: { ticket_id: 1 } };
      const [http, bare] = await Promise.all([
        httpClient(server.url, COUNTED_RUN_MS),
        httpClient(server.bareUrl, COUNTED_RUN_MS),
      ]);
      // The SDK's client gives up on a call after 60 s, which a call under callgrind on a loaded machine can take.
      const timeout = { timeout: COUNTED_RUN_MS };
      const calling = (call) => async (count) => {
        for (let i = 0; i < count; i += 1) {
          const answer = await call();
          const result = answer.result ?? answer;
          if (answer.error || result.isError)
            throw new Error(`tools/call failed: ${JSON.stringify(answer).slice(0, 300)}`);
        }
      };
      // In the order of the parts below.
      const sides = [
        calling(() => http.callTool(args, undefined, timeout)),
        (count) => server.direct(count),
        calling(() => server.rpc('tools/call', args)),
        calling(() => bare.callTool(args, undefined, timeout)),
      ];
      for (const side of sides) await side(warmup);
      await server.mark();
      for (const side of sides) {
        await side(calls);
        await server.mark();
      }
      await Promise.all([http.close(), bare.close()]);
    } finally {
      await server.stop();
    }
    const parts = readCallgrindParts(scratch);
    const [http, direct, stdio, bare] = parts.slice(1, 5).map((count) => count / calls);
    const stdioBare = await countBareStdio(build, sandbox, args, { warmup, calls });
    return { counter: counter.name, http, direct, stdio, bare, stdioBare };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The bare stdio child's instructions per tools/call, counted as the server child's stdio side: `warmup`, a mark, `calls`, a mark. */
async function countBareStdio(build, sandbox, args, { warmup, calls }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-server-instructions-'));
  try {
    const child = await startBareStdioChild(build, sandbox, underCallgrind(scratch));
    try {
      for (let i = 0; i < warmup; i += 1) await child.rpc('tools/call', args);
      await warmLikeTheServer(child, warmup);
      await child.mark();
      for (let i = 0; i < calls; i += 1) await child.rpc('tools/call', args);
      await child.mark();
    } finally {
      await child.stop();
    }
    return readCallgrindParts(scratch)[1] / calls;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const millionsOf = (instructions) => `${(instructions / 1e6).toFixed(2)} M`;

/** The one row of a figure no counter could count, with the reason. */
function notMeasured(row, figure, counted) {
  row(`${figure} (--instructions)`, `not measured (${counted.reason})`, '', '', '');
}

/** The intake's instruction rows (`--instructions`): listen against the bare server, young and warm. */
export function intakeInstructionRows(row, counted, sizes) {
  if (!counted.counter) return notMeasured(row, 'intake: listen, instructions per delivery', counted);
  const deliveries = sizes.rounds * sizes.count * 1.1;
  for (const [window, label] of [
    ['young', `its first ${deliveries} deliveries, as the CPU row`],
    ['warm', `the next ${deliveries}`],
  ]) {
    row(
      `intake: listen, server instructions per delivery (${counted.counter}), ${label}`,
      millionsOf(counted.ours[window]),
      `${millionsOf(counted.bare[window])} (bare node:http + HMAC)`,
      `${(counted.ours[window] / counted.bare[window]).toFixed(2)}x`,
      '',
    );
  }
}

/**
 * MCP's instruction rows (`--instructions`): a tools/call over stdio against
 * a direct invoke, over Streamable HTTP against the bare node:http server
 * answering from a direct invoke, as the CPU rows.
 */
export function mcpInstructionRow(row, counted, sizes) {
  const figure = 'MCP server instructions per tools/call, get_ticket_info';
  if (!counted.counter) return notMeasured(row, figure, counted);
  for (const [side, label, base, baseLabel] of [
    ...MCP_SIDES,
    ...MCP_BASELINES.map(([bare, bareLabel]) => [bare, bareLabel, 'direct', 'direct invoke']),
  ]) {
    const baseline = MCP_BASELINES.some(([bare]) => bare === side);
    row(
      `${baseline ? '  ... ' : `${figure}, `}${label} (${counted.counter}, ${sizes.calls} after ${sizes.warmup})`,
      `${millionsOf(counted[side])} (${counted[side] >= counted[base] ? '+' : ''}${millionsOf(counted[side] - counted[base])})`,
      `${millionsOf(counted[base])} (${baseLabel})`,
      `${(counted[side] / counted[base]).toFixed(2)}x`,
      '',
    );
  }
}
