/**
 * One worker process of the many-workers tests: a runtime over the Redis
 * connection store and coordinator, as an embedder would run several behind
 * a load balancer. Reads its job from WORKER_CONFIG and prints one JSON line
 * of results. Run as a child process (transpiled), never imported by a test.
 */

import { openCoordinator } from '../../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../../src/coordination/redis-coordinator.js';
import type { Clock } from '../../../src/model/clock.js';
import { ScaledClock, type ScaledClockSettings, systemClock } from '../../../src/model/clock.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { RedisConnectionStore } from '../../../src/store/redis/redis-connection-store.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { createRegistry } from '../../../steps/index.js';

export interface WorkerConfig {
  redisUrl: string;
  prefix: string;
  connection: string;
  /** `calls`: `calls` list calls; `until`: list calls until the clock reads `untilAt`; `marks`: one ticket per key won. */
  mode: 'calls' | 'until' | 'marks';
  calls?: number;
  untilAt?: number;
  keys?: string[];
  concurrency: number;
  clock?: ScaledClockSettings;
  /** Print `ready`, then wait for this coordinator value to hold the clock settings to start with. */
  goKey?: string;
  /** Start calling when the clock reads this. */
  fromAt?: number;
  lockTtlMs?: number;
}

const config = JSON.parse(process.env.WORKER_CONFIG ?? '{}') as WorkerConfig;
const coordinator = (await openCoordinator({
  redisUrl: config.redisUrl,
  prefix: config.prefix,
})) as RedisCoordinator;

const store = new RedisConnectionStore(coordinator, SecretBox.fromEnv(), {
  ...(config.lockTtlMs ? { lockTtlMs: config.lockTtlMs } : {}),
});

/** Every worker starts on one signal, so none spends quota while the others are still loading. */
async function startSignal(key: string): Promise<ScaledClockSettings> {
  // Load what the first call needs (the connection, the scripts) before saying ready.
  await store.get(config.connection);
  await coordinator.takeQuota('warm-up', 0);
  process.stdout.write('ready\n');
  for (;;) {
    const value = await coordinator.getValue(key);
    if (value) return JSON.parse(value) as ScaledClockSettings;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const settings = config.goKey ? await startSignal(config.goKey) : config.clock;
const clock: Clock = settings ? new ScaledClock(settings) : systemClock;
if (config.fromAt !== undefined) await clock.sleep(config.fromAt - clock.now());
const runtime = new Runtime({
  store,
  clock,
  coordination: coordinator,
  retry: { maxRetries: 5 },
  maxRateLimitWaitMs: 120_000,
});
const registry = createRegistry();
const tally = { ok: 0, failed: 0, errors: {} as Record<string, number>, won: [] as string[] };

function failed(error: unknown): void {
  tally.failed += 1;
  const code = (error as { code?: string }).code ?? (error as Error).message;
  tally.errors[code] = (tally.errors[code] ?? 0) + 1;
}

async function listOnce(): Promise<void> {
  await registry
    .invoke(runtime, 'ticketing.list_tickets', { connection: config.connection, input: { limit: 1 } })
    .then(() => {
      tally.ok += 1;
    }, failed);
}

/** Marks the key once across every worker (retrying while Redis is away), then creates its ticket. */
async function ticketFor(key: string): Promise<void> {
  let won: boolean | undefined;
  for (let tries = 0; won === undefined; tries += 1) {
    won = await coordinator.markOnce(`ticket:${key}`, 3_600_000).catch((error: unknown) => {
      if (tries >= 100) throw error;
      return new Promise<undefined>((resolve) => setTimeout(resolve, 200));
    });
  }
  if (!won) return;
  tally.won.push(key);
  await registry
    .invoke(runtime, 'ticketing.create_ticket', {
      connection: config.connection,
      input: { subject: `Run ${key}`, description: 'One per key.', external_id: key },
    })
    .then(() => {
      tally.ok += 1;
    }, failed);
}

async function lane(next: () => (() => Promise<void>) | undefined): Promise<void> {
  for (let job = next(); job; job = next()) await job();
}

let issued = 0;
const keys = [...(config.keys ?? [])];
const next = (): (() => Promise<void>) | undefined => {
  if (config.mode === 'calls') return issued++ < (config.calls ?? 0) ? listOnce : undefined;
  if (config.mode === 'until') return clock.now() < (config.untilAt ?? 0) ? listOnce : undefined;
  const key = keys.shift();
  return key === undefined ? undefined : () => ticketFor(key);
};

await Promise.all(Array.from({ length: config.concurrency }, () => lane(next)));
process.stdout.write(`${JSON.stringify({ pid: process.pid, ...tally })}\n`);
await coordinator.close();
process.exit(0);
