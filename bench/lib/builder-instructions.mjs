import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { requestOf, send, startChild } from './builder-load.mjs';
import { instructionCounter, readCallgrindParts } from './instruction-count.mjs';
import { underCallgrind } from './server-instructions.mjs';

/**
 * The counted builder's timeouts: under callgrind a request of 8 in flight
 * passed the default 10 s for its headers, and a window's mark left
 * connections idle past the 5 s keep-alive. Timers' lengths cost no instructions.
 */
const COUNTED_TIMEOUTS_MS = 600_000;

/** Turns of requestOf: even turns are searches, odd ones create_ticket's assignee options. */
const turnsOf = (kind, count) =>
  Array.from({ length: count }, (_, index) => requestOf(2 * index + (kind === 'search' ? 0 : 1)));

/** Sends `turns`, `concurrency` in flight; throws on any answer but 200, else resolves the largest answer of each kind. */
async function sendAll(dispatcher, server, turns, concurrency) {
  let next = 0;
  const failed = [];
  const bytes = { search: 0, options: 0 };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < turns.length) {
        const result = await send(dispatcher, server, turns[next++]);
        if (!result.ok) failed.push(result.status);
        else bytes[result.kind] = Math.max(bytes[result.kind], result.bytes);
      }
    }),
  );
  if (failed.length)
    throw new Error(`${failed.length} builder requests failed: ${failed.slice(0, 5).join(', ')}`);
  return bytes;
}

/** One server under callgrind: warmed, then `calls` searches and `calls` options, each window counted alone. */
async function countServer(build, side, argument, dispatcher, { warmup, calls, concurrency }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'toolsteps-builder-instructions-'));
  let bytes;
  let providerRequests;
  try {
    const server = await startChild(build, side, argument, {
      run: underCallgrind(scratch),
      timeoutsMs: COUNTED_TIMEOUTS_MS,
    });
    try {
      const warm = [...turnsOf('search', warmup), ...turnsOf('options', warmup)];
      bytes = await sendAll(dispatcher, server, warm, concurrency);
      const before = await server.counts();
      await server.mark();
      await sendAll(dispatcher, server, turnsOf('search', calls), concurrency);
      await server.mark();
      await sendAll(dispatcher, server, turnsOf('options', calls), concurrency);
      await server.mark();
      // The options cache keeps an answer 60 s, and a counted server takes minutes: what it asked the provider again is counted too.
      providerRequests = (await server.counts()).providerRequests - before.providerRequests;
    } finally {
      await server.stop();
    }
    const parts = readCallgrindParts(scratch);
    if (parts.length !== 4)
      throw new Error(`the ${side} server's count split into ${parts.length} parts, not 4`);
    return { search: parts[1] / calls, options: parts[2] / calls, bytes, providerRequests };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The builder API's server instructions per request (issue 35: the builder
 * row no worse than before Fastify), in the server child of the load row
 * (builder-server-child.mjs) under callgrind, seeded and single-threaded:
 * `warmup` searches and options first (the options cache filled), then a
 * mark, `calls` searches (`GET /v1/steps?q=`), a mark, `calls` assignee
 * options, a mark, `concurrency` in flight on one undici Agent. The bare
 * `node:http` server answering the same JSON sizes is counted the same way.
 * Resolves `{ counter, ours, bare }` (each `{ search, options }` per
 * request), or `{ reason }` without callgrind.
 */
export async function measureBuilderInstructions(build, sandbox, sizes) {
  const counter = await instructionCounter();
  if (!counter.countParts) return { reason: counter.reason ?? `${counter.name} cannot split a run` };
  // The client waits as long as the server's timeouts: under callgrind at a load of 30 one answer took past undici's 300 s.
  const dispatcher = new Agent({
    connections: sizes.concurrency,
    pipelining: 1,
    headersTimeout: COUNTED_TIMEOUTS_MS,
    bodyTimeout: COUNTED_TIMEOUTS_MS,
  });
  try {
    const ours = await countServer(build, 'builder', JSON.stringify(sandbox), dispatcher, sizes);
    // The bare server answers as many bytes as the builder did per route (builder-load.mjs).
    const bytes = `${ours.bytes.search},${ours.bytes.options}`;
    const bare = await countServer(build, 'bare', bytes, dispatcher, sizes);
    return { counter: counter.name, ours, bare, sizes };
  } finally {
    await dispatcher.close();
  }
}

/** The builder's instruction rows (`--instructions`): each route against the bare server. */
export function builderInstructionRows(row, counted) {
  const figure = 'builder API: server instructions per request';
  if (!counted.counter) {
    row(`${figure} (--instructions)`, `not measured (${counted.reason})`, '', '', '');
    return;
  }
  const { warmup, calls, concurrency } = counted.sizes;
  row(
    `${figure} (${counted.counter}, ${calls} a route after ${warmup}, ${concurrency} in flight; provider requests in the windows: ${counted.ours.providerRequests})`,
    '',
    '',
    '',
    '',
  );
  for (const [kind, label] of [
    ['search', 'GET /v1/steps?q='],
    ['options', 'POST /v1/steps/ticketing.create_ticket/options (assignee)'],
  ]) {
    row(
      `  ... ${label}`,
      `${(counted.ours[kind] / 1e3).toFixed(0)} K`,
      `${(counted.bare[kind] / 1e3).toFixed(0)} K (bare node:http, same JSON sizes)`,
      `${(counted.ours[kind] / counted.bare[kind]).toFixed(2)}x`,
      '',
    );
  }
}
