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
 *   node per-call-child.mjs <build> <sandbox JSON> <case name> <ours|bare> <warmup> <calls>
 */
import os from 'node:os';
import { bareClient, benchRuntime, loadClient, PER_CALL_CASES, recordRequests } from './per-call.mjs';

const [build, sandboxJson, caseName, side, warmupText, callsText] = process.argv.slice(2);
const entry = PER_CALL_CASES.find((item) => item.name === caseName);
if (!entry) throw new Error(`no per-call case ${JSON.stringify(caseName)}`);
if (side !== 'ours' && side !== 'bare')
  throw new Error(`side must be ours or bare, not ${JSON.stringify(side)}`);
const mark = () => os.getPriority();
const sandbox = JSON.parse(sandboxJson);
const client = await loadClient(build);
const registry = client.createRegistry();
const runtime = benchRuntime(client, sandbox);
const recorded = await recordRequests(client, sandbox, registry, entry);
const call =
  side === 'bare'
    ? bareClient(recorded, client.sharedDispatcher())
    : (unique) => registry.invoke(runtime, entry.step, { connection: 'bench', input: entry.input(unique) });
// A write's unique value differs per process too: every run of create_ticket creates tickets of its own.
const prefix = `${process.pid}-`;
for (let i = 0; i < Number(warmupText); i += 1) await call(`${prefix}w${i}`);
mark();
for (let i = 0; i < Number(callsText); i += 1) await call(`${prefix}c${i}`);
mark();
// The shared Agent keeps its sockets open; nothing else is left to do.
process.exit(0);
