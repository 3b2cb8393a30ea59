import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { median } from './cpu-sides.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const PROTOCOL = '2025-06-18';
const CLIENT_INFO = { name: 'toolsteps-bench', version: '1.0.0' };

/**
 * A child of the MCP rows (`script` in this folder, given `args`): its IPC
 * requests (child-ipc.mjs), and a JSON-RPC client over its stdio, initialized.
 * `run` starts it (default: this node with its arguments;
 * server-instructions.mjs runs it under callgrind).
 */
async function startRpcChild(script, args, run) {
  // TOOLSTEPS_BENCH_PROFILE_DIR: the child writes a V8 CPU profile there, as the intake's children do.
  const profileDir = process.env.TOOLSTEPS_BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const [command, commandArgs] = run([...profile, path.join(here, script), ...args]);
  const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] });
  const waiting = new Map();
  child.on('message', (message) => {
    const resolve = waiting.get(message.type);
    waiting.delete(message.type);
    resolve?.(message);
  });
  const ask = (type, extra = {}) =>
    new Promise((resolve) => {
      waiting.set(type, resolve);
      if (type !== 'ready') child.send({ type, ...extra });
    });
  const ready = await ask('ready');
  const answers = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    answers.get(message.id)?.(message);
    answers.delete(message.id);
  });
  let nextId = 0;
  const rpc = (method, params) =>
    new Promise((resolve) => {
      nextId += 1;
      const id = nextId;
      answers.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await rpc('initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: CLIENT_INFO });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const cpu = async () => (await ask('cpu')).us;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'stop' });
    await exited;
  };
  return {
    ready,
    rpc,
    cpu,
    direct: async (calls) => (await ask('direct', { calls })).us,
    mark: () => ask('mark'),
    stop,
  };
}

const defaultRun = (nodeArgs) => [process.execPath, nodeArgs];

/**
 * The server child (mcp-server-child.mjs): the MCP server over stdio and
 * Streamable HTTP, and the HTTP row's bare server (`url`, `bareUrl`).
 */
export async function startServerChild(build, sandbox, maxSessions, run = defaultRun) {
  const child = await startRpcChild(
    'mcp-server-child.mjs',
    [build, JSON.stringify(sandbox), String(maxSessions)],
    run,
  );
  return { ...child, url: child.ready.url, bareUrl: child.ready.bareUrl };
}

/** The stdio row's bare child (mcp-bare-stdio-child.mjs): JSON-RPC lines answered by hand from a direct invoke. */
export function startBareStdioChild(build, sandbox, run = defaultRun) {
  return startRpcChild('mcp-bare-stdio-child.mjs', [build, JSON.stringify(sandbox)], run);
}

/**
 * The MCP SDK's own client over Streamable HTTP, as an agent would connect;
 * `timeout` (ms) for its initialize, the SDK's 60 s unless given.
 */
export async function httpClient(url, timeout) {
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client(CLIENT_INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), timeout ? { timeout } : undefined);
  return client;
}

/** The flat tool name of get_ticket_info, as tools/list gives it. */
export async function toolName(rpc) {
  const { result } = await rpc('tools/list', {});
  const tool = result.tools.find((item) => item.name.includes('get_ticket_info'));
  if (!tool) throw new Error('tools/list has no get_ticket_info tool');
  return tool.name;
}

/**
 * Server CPU per `tools/call` of get_ticket_info over stdio and over
 * Streamable HTTP, against the same calls to the bare stdio child and the
 * bare node:http server, each answering them from a direct invoke (their
 * baselines), and `calls` direct invocations in the server process, the median of `rounds`
 * interleaved rounds; then `sessions` HTTP sessions
 * at once, each calling `callsPerSession` times, counting errors (a thrown
 * call or an error result).
 */
export async function measureMcp(build, sandbox, { rounds, calls, warmup, sessions, callsPerSession }) {
  const [server, bareStdio] = await Promise.all([
    startServerChild(build, sandbox, sessions + 56),
    startBareStdioChild(build, sandbox),
  ]);
  try {
    const name = await toolName(server.rpc);
    const args = { name, arguments: { ticket_id: 1 } };
    const http = await httpClient(server.url);
    const bare = await httpClient(server.bareUrl);
    const sides = {
      direct: (count) => server.direct(count),
      stdio: (count) => serverCpu(server, count, () => server.rpc('tools/call', args)),
      stdioBare: (count) => serverCpu(bareStdio, count, () => bareStdio.rpc('tools/call', args)),
      http: (count) => serverCpu(server, count, () => http.callTool(args)),
      bare: (count) => serverCpu(server, count, () => bare.callTool(args)),
    };
    for (const run of Object.values(sides)) await run(warmup);
    await warmLikeTheServer(bareStdio, warmup);
    const samples = { direct: [], stdio: [], stdioBare: [], http: [], bare: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const [side, run] of Object.entries(sides)) samples[side].push(await run(calls));
    }
    await Promise.all([http.close(), bare.close()]);
    const concurrent = await concurrentSessions(server.url, args, sessions, callsPerSession);
    return {
      tool: name,
      us: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])),
      concurrent,
    };
  } finally {
    await Promise.all([server.stop(), bareStdio.stop()]);
  }
}

/**
 * The bare stdio child invokes the step as many times more as the server
 * child did in its warm-up besides stdio (its direct, HTTP and bare HTTP
 * sides), so both start counting with the invocation as warm: a younger
 * process still compiling the same code would make the baseline look dear.
 */
export function warmLikeTheServer(bareStdio, warmup) {
  return bareStdio.direct(3 * warmup);
}

/** The server's CPU per call over `count` calls made one after another. */
async function serverCpu(server, count, call) {
  const started = await server.cpu();
  for (let i = 0; i < count; i += 1) {
    const answer = await call();
    const result = answer.result ?? answer;
    if (answer.error || result.isError)
      throw new Error(`tools/call failed: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  return ((await server.cpu()) - started) / count;
}

/** `sessions` clients at once, each its own session, each making `callsPerSession` calls. */
async function concurrentSessions(url, args, sessions, callsPerSession) {
  const byKind = {};
  let errors = 0;
  let ok = 0;
  const fail = (kind) => {
    errors += 1;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  };
  const started = performance.now();
  const clients = await Promise.all(
    Array.from({ length: sessions }, () =>
      httpClient(url).catch((error) => fail(`initialize: ${String(error?.message).slice(0, 60)}`)),
    ),
  );
  await Promise.all(
    clients.filter(Boolean).map(async (client) => {
      for (let i = 0; i < callsPerSession; i += 1) {
        let thrown;
        const result = await client.callTool(args).catch((error) => {
          thrown = error;
        });
        // fetch's own message says little ("fetch failed"): its cause names the socket error.
        const cause = thrown?.cause?.code ?? thrown?.cause?.message ?? thrown?.code ?? '';
        if (!result)
          fail(`call threw: ${String(thrown?.message).slice(0, 40)} (${String(cause).slice(0, 40)})`);
        else if (result.isError) fail('error result');
        else ok += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.filter(Boolean).map((client) => client.close().catch(() => undefined)));
  return { sessions, calls: sessions * callsPerSession, ok, errors, byKind, seconds };
}
