/**
 * One case and one side of the per-call instruction figures, in a process of
 * its own so a counter (instruction-count.mjs) sees it whole and nothing else
 * shapes its JIT: records the case's requests as per-call.mjs does, makes
 * `warmup` calls, marks, makes `calls` more and marks again. A mark is a call
 * of os.getPriority() (libuv's uv_os_getpriority, which nothing else here
 * calls; per-call-instructions.mjs names it): callgrind dumps its counts
 * there (`--dump-before`), so what it counts between the marks is exactly
 * those calls. A counter that cannot split a run counts two runs instead,
 * with `calls` and with none.
 *
 * Sides: `ours` (the invocation, memory store), `file` (the invocation with
 * the default file store in a temporary home), `bare` (the recorded requests
 * on bare fetch) and `request` (the same on a bare undici dispatcher.request).
 *
 *   node per-call-child.mjs <build> <sandbox JSON> <case name> <side> <warmup> <calls>
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  bareClient,
  bareRequestClient,
  benchConnection,
  benchRuntime,
  loadClient,
  PER_CALL_CASES,
  recordRequests,
} from './per-call.mjs';

// Every side a child can run.
const CHILD_SIDES = ['ours', 'file', 'bare', 'request'];

const [build, sandboxJson, caseName, side, warmupText, callsText] = process.argv.slice(2);
const entry = PER_CALL_CASES.find((item) => item.name === caseName);
if (!entry) throw new Error(`no per-call case ${JSON.stringify(caseName)}`);
if (!CHILD_SIDES.includes(side))
  throw new Error(`side must be one of ${CHILD_SIDES.join(', ')}, not ${JSON.stringify(side)}`);
const mark = () => os.getPriority();
const sandbox = JSON.parse(sandboxJson);
const client = await loadClient(build);
const registry = client.createRegistry();
const recorded = await recordRequests(client, sandbox, registry, entry);
let home;
const invoking = async () => {
  if (side !== 'file') return benchRuntime(client, sandbox);
  const { FileConnectionStore } = await import(
    pathToFileURL(path.join(build, 'src/store/files/file-connection-store.js')).href
  );
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-bench-'));
  const store = new FileConnectionStore(home);
  await store.put(benchConnection(sandbox));
  return new client.Runtime({ store });
};
const sides = {
  bare: () => bareClient(recorded, client.sharedDispatcher()),
  request: () => bareRequestClient(recorded, client.sharedDispatcher()),
};
const call =
  sides[side]?.() ??
  (await invoking().then(
    (runtime) => (unique) =>
      registry.invoke(runtime, entry.step, { connection: 'bench', input: entry.input(unique) }),
  ));
// A write's unique value differs per process too: every run of create_ticket creates tickets of its own.
const prefix = `${process.pid}-`;
for (let i = 0; i < Number(warmupText); i += 1) await call(`${prefix}w${i}`);
mark();
for (let i = 0; i < Number(callsText); i += 1) await call(`${prefix}c${i}`);
mark();
if (home) await rm(home, { recursive: true, force: true });
// The shared Agent keeps its sockets open; nothing else is left to do.
process.exit(0);
