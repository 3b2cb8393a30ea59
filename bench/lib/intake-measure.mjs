import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { median } from './cpu-sides.mjs';
import { countStarts, runDeliveries, SECRET, subscription } from './intake-figures.mjs';
import {
  processCpuMicros,
  startBareIntake,
  startListen,
  startRunSink,
  startWorker,
  waitFor,
} from './intake-servers.mjs';
import { buildModule, fileSubscriptionStore } from './server-instructions.mjs';

/** The environment of a child that must see none of this shell's stores. */
function cleanEnv(extra) {
  const env = { ...process.env, ...extra };
  for (const name of ['TOOLSTEPS_REDIS_URL', 'TOOLSTEPS_DATABASE_URL', 'TOOLSTEPS_TENANT']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

/** The event ids a listener printed (its hand-over without a sink: one line per started event). */
const printedIds = (stdout) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).event_id);

/** The server processes' CPU (us) per delivery of one run, from /proc; undefined where /proc is not there. */
async function withCpu(pids, deliveriesOf, run) {
  const total = () => pids.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? Number.NaN), 0);
  const before = total();
  const result = await run();
  return { ...result, cpuUs: (total() - before) / deliveriesOf };
}

/**
 * Bare and ours alternating, `rounds` times: the median rate and server CPU
 * per delivery of each (ours counts every process of the side: listener and
 * workers), and every run of ours for counting.
 */
async function alternate(bare, oursUrl, oursPids, label, sizes) {
  const rates = { bare: [], ours: [] };
  const cpu = { bare: [], ours: [] };
  const runs = [];
  // Each run sends `count` events and a tenth of them again.
  const deliveries = sizes.count * 1.1;
  for (let round = 0; round < sizes.rounds; round += 1) {
    const bareRun = await withCpu([bare.child.pid], deliveries, () =>
      runDeliveries(bare.url, `bare${round}`, sizes),
    );
    rates.bare.push(bareRun.perSecond);
    cpu.bare.push(bareRun.cpuUs);
    const run = await withCpu(oursPids, deliveries, () => runDeliveries(oursUrl, `${label}${round}`, sizes));
    rates.ours.push(run.perSecond);
    cpu.ours.push(run.cpuUs);
    runs.push(run);
  }
  const accepted = runs.flatMap((run) => run.accepted);
  const refused = runs.flatMap((run) =>
    Object.entries(run.byAnswer).filter(([answer]) => answer !== '200 started'),
  );
  const againNotDuplicate = runs.flatMap((run) =>
    Object.entries(run.again).filter(([answer]) => answer !== '200 duplicate'),
  );
  return {
    bare: median(rates.bare),
    ours: median(rates.ours),
    bareCpuUs: median(cpu.bare),
    oursCpuUs: median(cpu.ours),
    accepted,
    sent: sizes.count * sizes.rounds,
    refused: refused.reduce((sum, [, ids]) => sum + ids.length, 0),
    againNotDuplicate: againNotDuplicate.reduce((sum, [, ids]) => sum + ids.length, 0),
  };
}

/** `toolsteps listen` on the default file stores (a fresh TOOLSTEPS_HOME) against the bare server. */
async function plainListen(build, bare, sizes) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-bench-listen-'));
  const FileSubscriptionStore = await fileSubscriptionStore(build);
  await new FileSubscriptionStore(home).put(subscription());
  const listen = await startListen(build, cleanEnv({ TOOLSTEPS_HOME: home }));
  try {
    const result = await alternate(bare, listen.url, [listen.child.pid], 'file', sizes);
    const printed = () => printedIds(listen.output.stdout);
    await waitFor(() => printed().length >= result.accepted.length, 'every started event', 30_000).catch(
      () => undefined,
    );
    return { ...result, ...countStarts(result.accepted, printed()) };
  } finally {
    await listen.stop();
    await rm(home, { recursive: true, force: true });
  }
}

/** `listen --queue` with Redis dedupe and two `toolsteps worker`s forwarding each event to a sink that counts runs. */
async function queuedListen(build, bare, sizes, redisUrl) {
  const prefix = `bench-intake-${process.pid}-${randomBytes(3).toString('hex')}`;
  const key = randomBytes(32).toString('base64');
  const env = cleanEnv({
    TOOLSTEPS_REDIS_URL: redisUrl,
    TOOLSTEPS_REDIS_PREFIX: prefix,
    TOOLSTEPS_ENCRYPTION_KEY: key,
  });
  const { openRedisStores } = await buildModule(
    build,
    'src/coordination/open-redis-stores.js',
    'src/store/open-redis-stores.js',
  );
  const stores = await openRedisStores({ redisUrl, prefix, env });
  const sink = await startRunSink();
  const children = [];
  try {
    await stores.subscriptions.put(subscription());
    children.push(await startListen(build, env, ['--queue']));
    children.push(await startWorker(build, env, sink.url), await startWorker(build, env, sink.url));
    const pids = children.map((item) => item.child.pid);
    const result = await alternate(bare, children[0].url, pids, 'queue', sizes);
    await waitFor(
      () => sink.arrived.length >= result.accepted.length,
      'every queued event to run',
      60_000,
    ).catch(() => undefined);
    // A worker that ran an event twice would do it within a lease; the default lease is 30 s, so a short look only catches the quick ones.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { ...result, ...countStarts(result.accepted, sink.arrived) };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await sink.close();
    const client = stores.coordinator.client;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(...keys);
    await stores.close();
  }
}

/** Signed deliveries per second through `listen`, alone and with Redis and the queue, against the bare server (issue 26). */
export async function measureIntake(build, sizes, { redisUrl }) {
  const bare = await startBareIntake(SECRET);
  try {
    const plain = await plainListen(build, bare, sizes);
    const queued = await queuedListen(build, bare, sizes, redisUrl).catch((error) => ({
      skipped: error.message.split('\n')[0],
    }));
    return { plain, queued, sizes };
  } finally {
    await bare.stop();
  }
}
