import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';
import type { DeliveryContext } from '../../src/triggers/intake/intake.js';
import type { IntakeRefusal } from '../../src/triggers/intake/intake-refusal.js';
import { cliTenantChosen } from '../cli-tenant.js';
import type { KeepAliveFlags } from '../keep-alive-flags.js';
import { eventHandler, handOffDeadlineMs, type SinkOptions, sinkSettings } from '../listen/event-handler.js';
import { integerOption } from '../option-values.js';
import { logLine } from '../serving-log-line.js';
import { triggerContext } from '../trigger-context.js';

export interface ListenOptions extends SinkOptions, KeepAliveFlags {
  port: string;
  host: string;
  queue?: boolean;
  maxConnections: string;
  headersTimeout: string;
  requestTimeout: string;
}

/** `--max-connections`, `--headers-timeout` and `--request-timeout` (seconds), checked before the port opens. */
function serverLimits(options: ListenOptions) {
  return {
    maxConnections: integerOption(options.maxConnections, '--max-connections', { min: 1, max: 100_000 }),
    headersTimeoutMs: 1000 * integerOption(options.headersTimeout, '--headers-timeout', { min: 1, max: 600 }),
    requestTimeoutMs: 1000 * integerOption(options.requestTimeout, '--request-timeout', { min: 1, max: 600 }),
  };
}

/** How long putting an event on the queue may take: a job id makes a retried add add nothing. */
const QUEUE_HAND_OFF_DEADLINE_MS = 10_000;
/** How long a stopping listener waits for done marks its store has not confirmed yet. */
const SETTLE_ON_STOP_MS = 10_000;

/** Waits for Ctrl-C or a stop signal. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export async function listen(options: ListenOptions, command: Command): Promise<void> {
  const json = Boolean(command.optsWithGlobals().json);
  const port = integerOption(options.port, '--port', { min: 0, max: 65_535 });
  const sinks = sinkSettings(options);
  const limits = serverLimits(options);
  const { servingKeepAlive } = await import('./serving-keep-alive.js');
  const keepAlive = servingKeepAlive(options, json, false);
  // The intake and its context load only here, never for other commands.
  const [{ registry, stores }, { createIntake }, { createIntakeServer }] = await Promise.all([
    triggerContext({ serving: true }),
    import('../../src/triggers/intake/intake.js'),
    import('../../src/triggers/intake/intake-server.js'),
  ]);
  const queue = options.queue ? await openQueue(stores.redisUrl) : undefined;
  // Every tenant's hooks, or only the one asked for with --tenant or TOOLSTEPS_TENANT.
  const only = cliTenantChosen() ? stores.tenant : undefined;
  const intake = createIntake({
    tenants: (tenant) => (only === undefined || tenant === only ? stores.intakeTenant(tenant) : undefined),
    triggers: registry,
    handler: queue ? await queuedHandler(queue) : eventHandler(sinks),
    handOffDeadlineMs: queue ? QUEUE_HAND_OFF_DEADLINE_MS : handOffDeadlineMs(sinks),
    onRefused: (refusal: IntakeRefusal, context: DeliveryContext) =>
      logLine(
        json,
        'refused',
        `${refusal.status} ${refusal.code} ${context.subscription ?? '-'} ${context.event_id ?? '-'}: ${refusal.message}`,
        {
          status: refusal.status,
          code: refusal.code,
          message: refusal.message,
          ...context,
        },
      ),
    onSkipped: (reason: string, context: DeliveryContext) =>
      logLine(json, 'skipped', `${context.subscription} ${context.event_id}: ${reason}`, {
        reason,
        ...context,
      }),
  });
  const server = createIntakeServer(intake, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const base = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  logLine(
    json,
    'listening',
    `${base}/hooks/<subscription-id> (another tenant's: /hooks/<tenant>/<subscription-id>)`,
    {
      url: base,
      tenants: only ?? 'all',
    },
  );
  // A health change takes the path a started event takes: the queue, or the forward and --exec.
  const { healthEvent } = await import('../../src/runtime/health-change.js');
  const handOff = queue ? await queuedHandler(queue) : eventHandler(sinks);
  const keeping = await keepAlive.start((change) =>
    handOff(healthEvent(change), { signal: AbortSignal.timeout(handOffDeadlineMs(sinks)) }),
  );
  await untilStopped();
  await keeping.stop();
  await new Promise((resolve) => server.close(resolve));
  await intake.settle(SETTLE_ON_STOP_MS);
  await queue?.close();
}

/** The queue `--queue` puts accepted events on; it lives in the Redis every worker shares. */
export async function openQueue(redisUrl: string | undefined) {
  if (!redisUrl) {
    throw new InputError(
      '--queue puts events on a queue in Redis that every `toolsteps worker` reads: set TOOLSTEPS_REDIS_URL.',
      [{ path: 'queue', message: 'needs TOOLSTEPS_REDIS_URL' }],
    );
  }
  const { EventQueue } = await import('../../src/coordination/event-queue.js');
  return EventQueue.open({ redisUrl, prefix: process.env.TOOLSTEPS_REDIS_PREFIX?.trim() || 'toolsteps' });
}

/** Queues each accepted event (once per subscription and event id), then prints its line. */
export async function queuedHandler(queue: { add(event: TriggerEvent, json?: string): Promise<void> }) {
  return async (event: TriggerEvent) => {
    // Serialised once: the job's data and the printed line are the same JSON.
    const json = JSON.stringify(event);
    await queue.add(event, json);
    process.stdout.write(`${json}\n`);
  };
}
