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
 * the default file store in a temporary home), `redis` and `postgres` (the
 * invocation with that shared store, store-backends.mjs), `bare` (the
 * recorded requests on bare fetch), `request` (the same on a bare undici
 * dispatcher.request), and `request+redis` and `request+postgres` (each of
 * those after one bare round trip through the store's own client, a Redis GET
 * or a `SELECT 1`: the shared stores' baseline). A shared store that does not
 * answer exits with UNAVAILABLE_EXIT and the reason on stderr.
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
import { openSharedBackend, sharedServices } from './store-backends.mjs';

// Every side a child can run.
const CHILD_SIDES = [
  'ours',
  'file',
  'redis',
  'postgres',
  'bare',
  'request',
  'request+redis',
  'request+postgres',
];
/** The exit code of a side whose shared store does not answer (per-call-instructions.mjs leaves it out). */
const UNAVAILABLE_EXIT = 3;

const [build, sandboxJson, caseName, side, warmupText, callsText] = process.argv.slice(2);
const entry = PER_CALL_CASES.find((item) => item.name === caseName);
if (!entry) throw new Error(`no per-call case ${JSON.stringify(caseName)}`);
if (!CHILD_SIDES.includes(side))
  throw new Error(`side must be one of ${CHILD_SIDES.join(', ')}, not ${JSON.stringify(side)}`);
const mark = () => os.getPriority();
const sandbox = JSON.parse(sandboxJson);
const client = await loadClient(build);
const registry = client.createRegistry();
let home;
const sharedName = ['redis', 'postgres'].find((name) => side.endsWith(name));
const shared = sharedName
  ? await openSharedBackend(build, benchConnection(sandbox), sharedName, sharedServices()).catch((error) => {
      process.stderr.write(`${sharedName}: ${error.message}\n`);
      process.exit(UNAVAILABLE_EXIT);
    })
  : undefined;
// Recorded after the shared store opened (a migration under callgrind takes seconds): the sockets the
// recording leaves open must not sit idle past the sandbox's keep-alive before the first call reuses them.
const recorded = await recordRequests(client, sandbox, registry, entry);
const invoking = async () => {
  if (shared) return new client.Runtime({ store: shared.store });
  if (side !== 'file') return benchRuntime(client, sandbox);
  const { FileConnectionStore } = await import(
    pathToFileURL(path.join(build, 'src/store/files/file-connection-store.js')).href
  );
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-bench-'));
  const store = new FileConnectionStore(home);
  await store.put(benchConnection(sandbox));
  return new client.Runtime({ store });
};
const withRoundTrip = (send) => async (unique) => {
  await shared.roundTrip.run();
  await send(unique);
};
const sides = {
  bare: () => bareClient(recorded, client.sharedDispatcher()),
  request: () => bareRequestClient(recorded, client.sharedDispatcher()),
  'request+redis': () => withRoundTrip(bareRequestClient(recorded, client.sharedDispatcher())),
  'request+postgres': () => withRoundTrip(bareRequestClient(recorded, client.sharedDispatcher())),
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
// Callgrind's dump at the mark can freeze this process past the sandbox's 5 s keep-alive: a call made at
// once would write on a socket the sandbox has closed before the client's own idle timer has fired (a
// bare dispatcher.request does not retry, and failed so at load 7). A turn of the event loop lets the
// timer and the close be seen first (its few thousand instructions count with the calls, nothing over 800 calls).
await new Promise((resolve) => setTimeout(resolve, 10));
for (let i = 0; i < Number(callsText); i += 1) await call(`${prefix}c${i}`);
mark();
if (home) await rm(home, { recursive: true, force: true });
await shared?.close();
// The shared Agent keeps its sockets open; nothing else is left to do.
process.exit(0);
