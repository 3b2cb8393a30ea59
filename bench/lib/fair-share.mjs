import path from 'node:path';
import { pathToFileURL } from 'node:url';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Two tenants' contact-data connections, each with its own key, in one store per tenant. */
function tenantRuntimes(client, sandbox, coordination, limitsOfA) {
  const now = Date.now();
  const connection = (key) => ({
    id: 'data',
    integration: 'contact_data',
    kind: 'api_key',
    fields: { baseUrl: sandbox.contactData },
    secrets: { apiKey: key },
    createdAt: now,
    updatedAt: now,
  });
  const runtime = (tenant, key, limits) =>
    new client.Runtime({
      tenant,
      store: new client.MemoryConnectionStore([connection(key)]),
      coordination,
      transport: 'undici',
      ...(limits ? { limits } : {}),
    });
  return { a: runtime('flood', sandbox.keys.a, limitsOfA), b: runtime('single', sandbox.keys.b) };
}

/**
 * A pool of `workers` loops over one first-in, first-out queue of jobs, as a
 * worker pool serves every tenant's jobs. A job refused with
 * `tenant_limit_exceeded` goes back to the queue, to run no earlier than its
 * `retryAfterMs`: it does not hold a worker while it waits.
 */
function workerPool(workers) {
  const queue = [];
  let stopped = false;
  const next = () => {
    const now = performance.now();
    const index = queue.findIndex((job) => job.notBefore <= now);
    return index < 0 ? undefined : queue.splice(index, 1)[0];
  };
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const job = next();
      if (!job) {
        await sleep(1);
        continue;
      }
      try {
        job.resolve(await job.run());
      } catch (error) {
        if (error?.code === 'tenant_limit_exceeded') {
          queue.push({ ...job, notBefore: performance.now() + error.retryAfterMs });
        } else job.reject(error);
      }
    }
  });
  return {
    submit: (run) => new Promise((resolve, reject) => queue.push({ run, resolve, reject, notBefore: 0 })),
    /** Ends the loops once their current jobs finish; jobs still queued are dropped (rejected). */
    stop: async () => {
      stopped = true;
      for (const job of queue.splice(0)) job.reject(new Error('pool stopped'));
      await Promise.all(loops);
    },
  };
}

/**
 * Tenant `single` makes one find_contact call every `intervalMs` for
 * `durationMs`, each a job on a 2-worker pool; its latency is from submitting
 * the job to its result. With `flood`, tenant `flood` keeps `backlog` bulk
 * enrichment jobs (`contacts` each) queued on the same pool the whole time,
 * under `limitsOfFlood` when given.
 */
async function scenario(client, sandbox, options) {
  const { coordination, flood, limitsOfFlood, durationMs, intervalMs, backlog, contacts } = options;
  const registry = client.createRegistry();
  const { a, b } = tenantRuntimes(client, sandbox, coordination, limitsOfFlood);
  const pool = workerPool(2);
  let flooding = flood;
  const floodJobs = { done: 0 };
  const records = Array.from({ length: contacts }, (_, i) => ({ email: `person${i}@bench.example` }));
  const floodOne = async () => {
    while (flooding) {
      await pool
        .submit(() =>
          registry.invoke(a, 'contact_data.enrich_contacts', {
            connection: 'data',
            input: { contacts: records, batch_size: 100, concurrency: 1 },
          }),
        )
        .then(
          () => {
            if (flooding) floodJobs.done += 1;
          },
          () => undefined,
        );
    }
  };
  const floods = flood ? Array.from({ length: backlog }, floodOne) : [];
  const latencies = [];
  const calls = [];
  const started = performance.now();
  for (let index = 0; performance.now() - started < durationMs; index += 1) {
    const submitted = performance.now();
    calls.push(
      pool
        .submit(() =>
          registry.invoke(b, 'contact_data.find_contact', {
            connection: 'data',
            input: { email: `single${index}@bench.example` },
          }),
        )
        .then(() => latencies.push(performance.now() - submitted)),
    );
    await sleep(intervalMs - ((performance.now() - started) % intervalMs));
  }
  await Promise.all(calls);
  flooding = false;
  await pool.stop();
  await Promise.all(floods);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    calls: latencies.length,
    floodJobs,
  };
}

/**
 * The fair-share figure of issue 23: tenant `single`'s p99 alone on the
 * pool, with tenant `flood` flooding it unlimited, and with `flood` held to
 * its calls per minute. The two workers share one coordinator, as two
 * workers share one Redis: the limit holds across them.
 */
export async function measureFairShare(client, build, sandbox, sizes) {
  const { LocalCoordinator } = await import(
    pathToFileURL(path.join(build, 'src/coordination/local-coordinator.js')).href
  );
  const run = (extra) =>
    scenario(client, sandbox, { ...sizes, coordination: new LocalCoordinator(), ...extra });
  // Warm: sockets, JIT, the sandbox's first answers.
  await run({ flood: true, durationMs: Math.min(1000, sizes.durationMs) });
  const alone = await run({ flood: false });
  const unlimited = await run({ flood: true });
  const limited = await run({ flood: true, limitsOfFlood: { callsPerMinute: sizes.floodCallsPerMinute } });
  return { alone, unlimited, limited };
}
