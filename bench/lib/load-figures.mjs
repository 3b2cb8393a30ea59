import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchRuntime } from './per-call.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * `callers` concurrent callers on one connection share `calls` invocations
 * of list_tickets (25 a page): calls per second, and how many failed. The
 * baseline sends the same request through bare fetch, the same way.
 */
export async function measureConcurrency(client, sandbox, { callers, calls }) {
  const registry = client.createRegistry();
  const runtime = benchRuntime(client, sandbox);
  const dispatcher = client.sharedDispatcher();
  const url = `${sandbox.ticketing}/api/v2/tickets.json?page%5Bsize%5D=25`;
  const sides = {
    bare: async () => {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${sandbox.token}`, accept: 'application/json' },
        dispatcher,
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await response.json();
    },
    ours: () =>
      registry.invoke(runtime, 'ticketing.list_tickets', { connection: 'bench', input: { limit: 25 } }),
  };
  const result = {};
  for (const [side, call] of Object.entries(sides)) {
    // Warm: open the sockets (one idle longer than the server keeps it may fail once).
    await Promise.all(Array.from({ length: callers }, () => call().catch(() => undefined)));
    let next = 0;
    let errors = 0;
    const byCode = {};
    const started = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < calls) {
          next += 1;
          await call().catch((error) => {
            errors += 1;
            const code = error?.code ?? error?.name ?? 'unknown';
            byCode[code] = (byCode[code] ?? 0) + 1;
          });
        }
      }),
    );
    result[side] = { perSecond: calls / ((performance.now() - started) / 1000), errors, byCode };
  }
  return result;
}

/**
 * A contact-data connection to the sandbox on the benchmark's fast clock,
 * counting every request its fetch sends.
 */
async function bulkRuntime(client, sandbox, clock) {
  const { Runtime } = client;
  const sent = [];
  const now = Date.now();
  const runtime = new Runtime({
    clock,
    store: new client.MemoryConnectionStore([
      {
        id: 'bulk',
        integration: 'contact_data',
        kind: 'api_key',
        fields: { baseUrl: sandbox.contactData },
        secrets: { apiKey: sandbox.contactDataKey },
        createdAt: now,
        updatedAt: now,
      },
    ]),
    transport: {
      fetch: (url, init) => {
        sent.push({ url: String(url), method: init.method, headers: { ...init.headers }, body: init.body });
        return globalThis.fetch(url, init);
      },
    },
    maxRateLimitWaitMs: 10 * 60_000,
  });
  return { runtime, sent };
}

/**
 * 10,000 contacts through enrich_contacts against the provider's per-minute
 * quota, on a clock `speed` times faster than real time (shared with the
 * sandbox process) so a run of minutes takes seconds. The baseline replays
 * the same 100 requests through bare fetch with the same concurrency, holding
 * back exactly when the quota is spent until the window refills: the
 * quota-bound optimum. Both runs start on a window boundary.
 */
export async function measureBulk(client, build, sandbox, { contacts, speed, epoch, perMinute }) {
  const { ScaledClock } = await import(pathToFileURL(path.join(build, 'src/model/clock.js')).href);
  const clock = new ScaledClock({ startAt: epoch, realStart: epoch, speed });
  const windowMs = 60_000;
  const untilBoundary = () => sleep((windowMs - (clock.now() % windowMs)) / speed + 5);
  const registry = client.createRegistry();
  const { runtime, sent } = await bulkRuntime(client, sandbox, clock);
  const records = Array.from({ length: contacts }, (_, index) => ({ email: `person${index}@bench.example` }));
  await untilBoundary();
  let started = performance.now();
  const { output } = await registry.invoke(runtime, 'contact_data.enrich_contacts', {
    connection: 'bulk',
    input: { contacts: records, batch_size: 100, concurrency: 3 },
  });
  const oursMs = performance.now() - started;
  const failed = output.summary.failed;
  const requests = sent.length;

  await untilBoundary();
  started = performance.now();
  let window = -1;
  let inWindow = 0;
  let index = 0;
  const dispatcher = client.sharedDispatcher();
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (index < sent.length) {
        const current = Math.floor(clock.now() / windowMs);
        if (current !== window) {
          window = current;
          inWindow = 0;
        }
        if (inWindow >= perMinute) {
          await untilBoundary();
          continue;
        }
        inWindow += 1;
        const request = sent[index++];
        const response = await fetch(request.url, { ...request, dispatcher });
        await response.json();
      }
    }),
  );
  const bareMs = performance.now() - started;
  return { oursMs, bareMs, requests, failed };
}
