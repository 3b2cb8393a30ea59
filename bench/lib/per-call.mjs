import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importBuilt } from './built-file.mjs';
import { measureSides } from './cpu-sides.mjs';

/**
 * Client CPU per invocation against the same requests through bare fetch.
 * The requests of each step are recorded from one invocation (through the
 * runtime's `transport: { fetch }`) and replayed as the baseline: same URLs, methods,
 * headers and bodies, the same undici Agent, and the body read with
 * `response.json()`. A write's unique value (create_ticket's external_id)
 * is a marker in the recording, replaced by a fresh value on every call.
 */
export const PER_CALL_CASES = [
  { name: 'get_ticket_info', step: 'ticketing.get_ticket_info', input: () => ({ ticket_id: 1 }) },
  { name: 'list_tickets 25', step: 'ticketing.list_tickets', input: () => ({ limit: 25 }) },
  { name: 'list_tickets 100', step: 'ticketing.list_tickets', input: () => ({ limit: 100 }) },
  {
    name: 'create_ticket',
    step: 'ticketing.create_ticket',
    input: (unique) => ({
      subject: 'Printer jams',
      description: 'The printer on floor 3 jams on every job.',
      priority: 'normal',
      external_id: `bench-${unique}`,
    }),
  },
];

const MARKER = 'MARKER0000000000';

export async function loadClient(build) {
  const load = (file) => import(pathToFileURL(path.join(build, file)).href);
  const [{ Runtime }, { MemoryConnectionStore }, { sharedDispatcher }, { createRegistry }] =
    await Promise.all([
      load('src/runtime/runtime.js'),
      importBuilt(
        build,
        'src/store/memory/memory-connection-store.js',
        'src/store/connections/memory-connection-store.js',
      ),
      load('src/http/dispatcher-wire.js'),
      load('steps/index.js'),
    ]);
  return { build, Runtime, MemoryConnectionStore, sharedDispatcher, createRegistry };
}

/** The one ticketing connection `bench`, to the sandbox, with a token good for a day. */
export function benchConnection(sandbox) {
  const now = Date.now();
  return {
    id: 'bench',
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme', baseUrl: sandbox.ticketing },
    secrets: { accessToken: sandbox.token },
    expiresAt: now + 24 * 3600_000,
    createdAt: now,
    updatedAt: now,
  };
}

/** A runtime with one ticketing connection `bench` to the sandbox; a `transport: { fetch }` in `options` sees every request. */
export function benchRuntime(client, sandbox, options = {}) {
  return new client.Runtime({
    store: new client.MemoryConnectionStore([benchConnection(sandbox)]),
    ...options,
  });
}

/** The requests one invocation of the case sends, as `[url, init]` templates. */
export async function recordRequests(client, sandbox, registry, entry) {
  const recorded = [];
  const recording = benchRuntime(client, sandbox, {
    transport: {
      fetch: (url, init) => {
        recorded.push({
          url: String(url),
          method: init.method,
          headers: { ...init.headers },
          body: init.body,
        });
        return globalThis.fetch(url, init);
      },
    },
  });
  await registry.invoke(recording, entry.step, { connection: 'bench', input: entry.input(MARKER) });
  return recorded;
}

/**
 * The same requests on undici's own `dispatcher.request`, the body read with
 * `body.json()`: the cheapest hand-written client, for scale (no goal).
 */
export function bareRequestClient(recorded, dispatcher) {
  return async (unique) => {
    for (const request of recorded) {
      const url = new URL(request.url.replaceAll(MARKER, unique));
      const response = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body?.replaceAll(MARKER, unique),
      });
      await response.body.json();
    }
  };
}

/** Sends the recorded requests one after another with bare fetch, as a hand-written client would. */
export function bareClient(recorded, dispatcher) {
  return async (unique) => {
    for (const request of recorded) {
      const response = await fetch(request.url.replaceAll(MARKER, unique), {
        method: request.method,
        headers: request.headers,
        body: request.body?.replaceAll(MARKER, unique),
        dispatcher,
      });
      await response.json();
    }
  };
}

/**
 * Per case: median over `rounds` of the CPU per call (us) of `calls` bare
 * fetch calls, `calls` invocations and `calls` bare dispatcher.request
 * calls, interleaved so load bursts hit all alike.
 */
export async function measurePerCall(client, sandbox, { rounds = 15, calls = 200, warmup = 200 } = {}) {
  const registry = client.createRegistry();
  const runtime = benchRuntime(client, sandbox);
  const dispatcher = client.sharedDispatcher();
  const results = [];
  for (const entry of PER_CALL_CASES) {
    const recorded = await recordRequests(client, sandbox, registry, entry);
    const figures = await measureSides(
      {
        bare: bareClient(recorded, dispatcher),
        ours: (key) => registry.invoke(runtime, entry.step, { connection: 'bench', input: entry.input(key) }),
        request: bareRequestClient(recorded, dispatcher),
      },
      { rounds, calls, warmup },
    );
    results.push({
      name: entry.name,
      requests: recorded.length,
      bareUs: figures.bare,
      oursUs: figures.ours,
      requestUs: figures.request,
    });
  }
  return results;
}
