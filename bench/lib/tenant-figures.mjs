import { measureSides, median } from './cpu-sides.mjs';
import { bareRequestClient, benchConnection, PER_CALL_CASES, recordRequests } from './per-call.mjs';
import { openLoadedPostgres, openLoadedRedis, tenantId } from './tenant-backends.mjs';

const GET_TICKET_INFO = PER_CALL_CASES.find((entry) => entry.name === 'get_ticket_info');

const percentile = (samples, p) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * The Redis commands `work` sends under `prefix`, as the server saw them
 * (MONITOR on a connection of its own, filtered by the run's prefix: the
 * server is shared with other processes). `get` awaits each command before
 * the next, so each command is one round trip; what a script runs inside
 * (source `lua`) is part of the script's.
 */
async function redisCommands(client, prefix, work) {
  const monitor = await client.monitor();
  const seen = [];
  const mark = `${prefix}:monitor-mark-${Math.random()}`;
  let marked;
  const done = new Promise((resolve) => {
    marked = resolve;
  });
  let open = true;
  // Events still arrive between the mark and the monitor's disconnect: the next figure's commands, not counted.
  // A script's own commands show with the source `lua`: they run inside the script's one round trip, so they are not counted.
  monitor.on('monitor', (_time, args, source) => {
    if (!open) return;
    if (args.includes(mark)) {
      open = false;
      marked();
    } else if (source !== 'lua' && args.some((arg) => String(arg).includes(prefix)))
      seen.push(String(args[0]).toUpperCase());
  });
  try {
    await work();
    await client.get(mark);
    await done;
  } finally {
    monitor.disconnect();
  }
  return seen;
}

/**
 * The statements `work` sends through the pool, counted where node-postgres
 * sends them (`Client.prototype.query`: one call is one exchange with the
 * server, a multi-statement text included), with their text and values for
 * EXPLAIN. pg_stat_statements is not loaded on the server, and
 * `pg_stat_database` counts transactions, not round trips.
 */
async function postgresQueries(pool, work) {
  const client = await pool.connect();
  const prototype = Object.getPrototypeOf(client);
  client.release();
  const original = prototype.query;
  const seen = [];
  prototype.query = function counted(text, values, ...rest) {
    seen.push({ text: typeof text === 'string' ? text : text.text, values });
    return original.call(this, text, values, ...rest);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return seen;
}

/** The plan nodes of the statement as the tenant's transaction runs it (row-level security on, as in production). */
async function explain(pool, tenant, { text, values }) {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SELECT set_config('app.tenant', '${tenant}', true)`);
    // A one-round-trip read sends the tenant and the select as one simple query: explain the select.
    const statement = text.replace(/^\s*SELECT set_config\('app\.tenant', '[^']*', true\);\s*/, '');
    const { rows } = await client.query(`EXPLAIN ${statement}`, values);
    await client.query('COMMIT');
    return rows.map((row) => row['QUERY PLAN']);
  } finally {
    client.release();
  }
}

/** Wall time per call (us) of each side, interleaved round by round; every sample kept for percentiles. */
async function timeSides(sides, { rounds, calls, warmup }) {
  const entries = Object.entries(sides).map(([name, run]) => ({ name, run, samples: [] }));
  let unique = 0;
  for (const side of entries) for (let i = 0; i < warmup; i += 1) await side.run(unique++);
  for (let round = 0; round < rounds; round += 1) {
    for (const side of entries) {
      for (let i = 0; i < calls; i += 1) {
        const started = performance.now();
        await side.run(unique++);
        side.samples.push((performance.now() - started) * 1000);
      }
    }
  }
  return Object.fromEntries(entries.map((side) => [side.name, side.samples]));
}

/** A lookup of tenant and connection spread over the whole load (a fixed stride, so runs compare). */
const spreadLookup = (load) => (unique) => ({
  tenant: tenantId((unique * 7_919) % load.tenants),
  id: `conn-${1 + (unique % (load.perTenant - 1))}`,
});

/**
 * Issue 26's tenants at scale, on one backend (Redis or Postgres): the big
 * store (`tenants` tenants of `perTenant` connections) and a small one (10
 * tenants, the target's records the same), then (a) round trips and latency
 * of a lookup against the backend's bare round trip, (b) the target's list
 * in the big store against the small one, with Postgres's plan, and (c)
 * invoke CPU per call with the big store against bare requests plus one
 * round trip.
 */
async function measureBackend(kind, client, sandbox, sizes, settings) {
  const template = benchConnection(sandbox);
  const big = { tenants: sizes.tenants, perTenant: sizes.perTenant, target: tenantId(0), template };
  const small = { ...big, tenants: Math.min(10, sizes.tenants) };
  const open = (load, label) =>
    kind === 'redis'
      ? openLoadedRedis(client.build, load, { ...settings, label })
      : openLoadedPostgres(client.build, load, settings);
  const smallStore = await open(small, 'small');
  let bigStore;
  try {
    bigStore = await open(big, 'big');
    const lookup = spreadLookup(big);
    const get = (unique) => {
      const { tenant, id } = lookup(unique);
      return bigStore.view(tenant).get(id);
    };
    const count = (store, work) =>
      kind === 'redis'
        ? redisCommands(store.client, store.prefix, work)
        : postgresQueries(store.pool, work).then((queries) => queries.map((query) => query.text));
    // (a) one lookup's round trips (of a tenant not read before), then its latency.
    const getTrips = await count(bigStore, () => get(sizes.lookups.calls * sizes.lookups.rounds + 1));
    const bareTrips = await count(bigStore, () => bigStore.roundTrip.run());
    const latency = await timeSides(
      { get, bare: () => bigStore.roundTrip.run() },
      { ...sizes.lookups, warmup: 20 },
    );
    // (b) the target's list, big store against small.
    const listBig = () => bigStore.view(big.target).list();
    const listSmall = () => smallStore.view(small.target).list();
    const listTrips = { big: await count(bigStore, listBig), small: await count(smallStore, listSmall) };
    const listUs = await timeSides({ big: listBig, small: listSmall }, { ...sizes.lists, warmup: 20 });
    let plans;
    if (kind === 'postgres') {
      const listed = await postgresQueries(bigStore.pool, listBig);
      const got = await postgresQueries(bigStore.pool, () => bigStore.view(big.target).get('conn-1'));
      const statement = (queries) =>
        queries.find((query) => new RegExp(`\\bFROM ${bigStore.schema}\\.connections\\b`).test(query.text));
      plans = {
        list: await explain(bigStore.pool, big.target, statement(listed)),
        get: await explain(bigStore.pool, big.target, statement(got)),
      };
    }
    // (c) invoke CPU per call with the big store, against bare requests plus the backend's one round trip.
    const registry = client.createRegistry();
    const recorded = await recordRequests(client, sandbox, registry, GET_TICKET_INFO);
    const bare = bareRequestClient(recorded, client.sharedDispatcher());
    const runtime = new client.Runtime({ store: bigStore.view(big.target) });
    const cpu = await measureSides(
      {
        ours: (unique) =>
          registry.invoke(runtime, GET_TICKET_INFO.step, {
            connection: template.id,
            input: GET_TICKET_INFO.input(unique),
          }),
        baseline: async (unique) => {
          await bigStore.roundTrip.run();
          await bare(unique);
        },
      },
      sizes.perCall,
    );
    return {
      name: bigStore.name,
      sizes: { tenants: big.tenants, perTenant: big.perTenant, small: small.tenants },
      loadMs: bigStore.loadMs,
      roundTripLabel: bigStore.roundTrip.label,
      getTrips,
      bareTrips,
      latency: {
        get: { p50: percentile(latency.get, 50), p99: percentile(latency.get, 99) },
        bare: { p50: percentile(latency.bare, 50), p99: percentile(latency.bare, 99) },
      },
      listTrips,
      listUs: { big: median(listUs.big), small: median(listUs.small) },
      plans,
      requests: recorded.length,
      cpu,
    };
  } finally {
    await bigStore?.close();
    await smallStore.close();
  }
}

/** Both backends; one that does not answer is a reason in `skipped`, not a failure of the run. */
export async function measureTenants(client, sandbox, sizes, settings) {
  const measured = [];
  const skipped = [];
  for (const [kind, label] of [
    ['redis', 'Redis store'],
    ['postgres', 'Postgres store'],
  ]) {
    try {
      measured.push(await measureBackend(kind, client, sandbox, sizes, settings));
    } catch (error) {
      if (!/not reachable|ECONNREFUSED|ETIMEDOUT|timeout/i.test(String(error?.message))) throw error;
      skipped.push(`${label}: ${error.message}`);
    }
  }
  return { measured, skipped };
}
