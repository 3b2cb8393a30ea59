import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Searches a builder's search bar sends as a person types, and the options of create_ticket's assignee. */
const SEARCHES = [
  'ticket',
  'create ticket',
  'user',
  'deploy',
  'contact',
  'comment',
  'organization',
  'enrich',
];
const OPTION_QUERIES = ['', 'a', 'e', 'jo'];
const OPTIONS_PATH = '/v1/steps/ticketing.create_ticket/options';

/** The request of turn `n`: searches and options alternate, each cycling through its own list. */
export function requestOf(n) {
  if (n % 2 === 0) {
    const q = SEARCHES[(n / 2) % SEARCHES.length];
    return { kind: 'search', method: 'GET', path: `/v1/steps?q=${encodeURIComponent(q)}&limit=20` };
  }
  const query = OPTION_QUERIES[((n - 1) / 2) % OPTION_QUERIES.length];
  return {
    kind: 'options',
    method: 'POST',
    path: OPTIONS_PATH,
    body: JSON.stringify({ field: 'assignee', connection: 'bench', ...(query ? { query } : {}) }),
  };
}

/**
 * A server child (builder-server-child.mjs), `side` builder or bare, started
 * by `run` (node itself, or node under a counter: builder-instructions.mjs,
 * which also sets `timeoutsMs`, the builder's headers, request and
 * keep-alive timeouts, as callgrind slows a server some fifty times), with
 * an IPC channel: `counts()` asks its CPU and provider requests, `mark()`
 * makes it enter the counter's split function, `stop()` ends it.
 */
export async function startChild(
  build,
  side,
  argument,
  { run = (nodeArgs) => [process.execPath, nodeArgs], timeoutsMs } = {},
) {
  // TOOLSTEPS_BENCH_PROFILE_DIR: each server writes a V8 CPU profile there, as the intake's and MCP's children do.
  const profileDir = process.env.TOOLSTEPS_BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const [command, args] = run([
    ...profile,
    path.join(here, 'builder-server-child.mjs'),
    build,
    side,
    argument,
    ...(timeoutsMs ? [String(timeoutsMs)] : []),
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the ${side} server exited with ${code} before it was ready`)),
    );
    child.once('message', resolve);
  });
  const ask = (type) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send({ type });
    });
  return {
    ...ready,
    counts: () => ask('counts'),
    mark: () => ask('mark'),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

/** One request through the shared client: status, bytes, the client's wall time and the server's `app;dur`. */
export async function send(dispatcher, server, turn) {
  const started = performance.now();
  try {
    const answer = await request(`${server.url}${turn.path}`, {
      dispatcher,
      method: turn.method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(turn.body ? { 'content-type': 'application/json' } : {}),
      },
      body: turn.body,
    });
    const text = await answer.body.text();
    const timing = /app;dur=([\d.]+)/.exec(String(answer.headers['server-timing'] ?? ''));
    return {
      kind: turn.kind,
      ok: answer.statusCode === 200,
      status: answer.statusCode,
      bytes: Buffer.byteLength(text),
      clientMs: performance.now() - started,
      serverMs: timing ? Number(timing[1]) : Number.NaN,
    };
  } catch (error) {
    return {
      kind: turn.kind,
      ok: false,
      status: error.code ?? 'error',
      clientMs: performance.now() - started,
    };
  }
}

/** `clients` clients at once, each sending `perClient` requests one after another. */
async function drive(dispatcher, server, { clients, perClient }) {
  const results = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient; i += 1)
        results.push(await send(dispatcher, server, requestOf(client + i)));
    }),
  );
  return { results, seconds: (performance.now() - started) / 1000 };
}

/**
 * The builder API (issue 26) under `clients` concurrent clients sending
 * searches and create_ticket's assignee options, against a bare
 * `node:http` server answering the same JSON sizes to the same client in the
 * same run. Every distinct request is sent once first (that fills the
 * options cache, whose provider calls are excluded from the goal), then the
 * measured requests; the provider requests the builder made while measured
 * are counted. Each server runs in a process of its own.
 */
export async function measureBuilderLoad(build, sandbox, sizes) {
  const dispatcher = new Agent({ connections: sizes.clients + 16, pipelining: 1 });
  const builder = await startChild(build, 'builder', JSON.stringify(sandbox));
  let bare;
  try {
    const warm = [];
    for (let n = 0; n < 2 * Math.max(SEARCHES.length, OPTION_QUERIES.length); n += 1)
      warm.push(await send(dispatcher, builder, requestOf(n)));
    const failedWarm = warm.filter((result) => !result.ok);
    if (failedWarm.length) throw new Error(`the builder refused a warm-up request: ${failedWarm[0].status}`);
    const sizeOf = (kind) => Math.max(...warm.filter((result) => result.kind === kind).map((r) => r.bytes));
    bare = await startChild(build, 'bare', `${sizeOf('search')},${sizeOf('options')}`);
    await drive(dispatcher, bare, { clients: sizes.clients, perClient: 2 });
    const measure = async (server) => {
      const before = await server.counts();
      const run = await drive(dispatcher, server, sizes);
      const after = await server.counts();
      return {
        ...run,
        providerRequests: after.providerRequests - before.providerRequests,
        cpuUsPerRequest: (after.cpuUs - before.cpuUs) / run.results.length,
      };
    };
    const ours = await measure(builder);
    const baseline = await measure(bare);
    return { sizes, ours, baseline, bytes: { search: sizeOf('search'), options: sizeOf('options') } };
  } finally {
    await builder.stop();
    await bare?.stop();
    await dispatcher.close();
  }
}
