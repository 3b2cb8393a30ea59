import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import { cliStores } from '../cli-stores.js';
import { type KeepAliveFlags, keepAliveFlags } from '../keep-alive-flags.js';
import { eventHandler, type SinkOptions, sinkSettings } from '../listen/event-handler.js';
import { integerOption } from '../option-values.js';
import { logLine } from '../serving-log-line.js';
import { untilStopped } from './listen-action.js';

interface WorkerOptions extends SinkOptions, KeepAliveFlags {
  concurrency: string;
  attempts: string;
  leaseMs: string;
}

async function work(options: WorkerOptions, command: Command): Promise<void> {
  const json = Boolean(command.optsWithGlobals().json);
  const sinks = sinkSettings(options);
  const settings = {
    concurrency: integerOption(options.concurrency, '--concurrency', { min: 1, max: 1000 }),
    attempts: integerOption(options.attempts, '--attempts', { min: 1, max: 100 }),
    leaseMs: integerOption(options.leaseMs, '--lease-ms', { min: 1000, max: 3_600_000 }),
  };
  const { servingKeepAlive } = await import('./serving-keep-alive.js');
  const keepAlive = servingKeepAlive(options, json);
  const { redisUrl } = await cliStores();
  if (!redisUrl) {
    throw new InputError('toolsteps worker reads the event queue in Redis: set TOOLSTEPS_REDIS_URL.', [
      { path: 'TOOLSTEPS_REDIS_URL', message: 'required' },
    ]);
  }
  const [{ runEventWorker, EventQueue }, { healthEvent }] = await Promise.all([
    import('../../src/coordination/event-queue.js'),
    import('../../src/runtime/health-change.js'),
  ]);
  const prefix = process.env.TOOLSTEPS_REDIS_PREFIX?.trim() || 'toolsteps';
  const handle = eventHandler(sinks);
  const worker = await runEventWorker({
    redisUrl,
    prefix,
    handle,
    ...settings,
    onDead: (event: TriggerEvent, reason: string) =>
      logLine(json, 'dead', `${event.subscription} ${event.event_id}: ${reason}`, {
        subscription: event.subscription,
        event_id: event.event_id,
        reason,
      }),
  });
  logLine(json, 'working', `taking events from the queue (${settings.concurrency} at a time)`, settings);
  // A health change goes on the queue as an event: forwarded or run like a trigger's, retried, deduped by its id.
  const queue = keepAlive.settings ? await EventQueue.open({ redisUrl, prefix }) : undefined;
  const keeping = await keepAlive.start(async (change) => {
    await queue?.add(healthEvent(change));
  });
  await untilStopped();
  await keeping.stop();
  await queue?.close();
  await worker.close();
}

/**
 * `worker`: runs queued events (from `listen --queue`) with retries and a
 * dead-letter queue, and keeps every tenant's connections alive on the
 * schedule the workers share in Redis.
 */
export default function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description(
      'Run the events `listen --queue` accepted: forward or exec each, retrying, and keep the ones that never succeed in a dead-letter queue.',
    )
    .option('--forward-to <url>', 'POST each event to this URL (kept out of logs, errors and Redis)')
    .option('--forward-to-env <name>', 'read the --forward-to URL from this environment variable')
    .option('--exec <command>', 'run this shell command per event, with the event on stdin')
    .option('--forward-timeout <seconds>', 'time one forward may take to be answered 2xx', '10')
    .option(
      '--exec-timeout <seconds>',
      'time one --exec command may run; then its process group gets SIGTERM, and SIGKILL 5 s later',
      '60',
    )
    .option('--concurrency <n>', 'events run at once', '1')
    .option('--attempts <n>', 'runs per event before it goes to the dead-letter queue', '5')
    .option('--lease-ms <ms>', "how long a worker's hold on an event lasts without renewal", '30000');
  keepAliveFlags(command, true).action(work);
}
