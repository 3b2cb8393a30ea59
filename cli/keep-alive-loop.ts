import { InputError } from '../src/errors/input-error.js';
import { DEFAULT_TENANT, type TenantId } from '../src/model/tenant-id.js';
import type { HealthChange } from '../src/runtime/health-change.js';
import {
  DEFAULT_KEEP_ALIVE_PERIOD_MS,
  DEFAULT_KEEP_ALIVE_POLL_MS,
} from '../src/runtime/keep-alive-schedule.js';
import type { Runtime } from '../src/runtime/runtime.js';
import { cliRegistry } from './cli-context.js';
import { cliStores } from './cli-stores.js';
import { durationOption } from './duration-option.js';
import type { KeepAliveFlags } from './keep-alive-flags.js';
import { keepAliveWindowMs } from './keep-alive-window.js';
import { integerOption } from './option-values.js';

/** How a serving command keeps connections alive: every `periodMs`, looking every `pollMs` whether a pass is due. */
export interface KeepAliveSettings {
  periodMs: number;
  pollMs: number;
  windowMs: number;
}

/**
 * The keep-alive schedule of a serving command, or undefined when it is
 * switched off (`--no-keep-alive`, `TOOLSTEPS_KEEP_ALIVE=off`) or, where it
 * is not on `byDefault` (`listen`), not asked for with a period. The period
 * is `--keep-alive-every`, else `TOOLSTEPS_KEEP_ALIVE_EVERY`, else a day;
 * `TOOLSTEPS_KEEP_ALIVE_POLL_MS` says how often a process looks whether
 * the shared schedule is due (a minute; tests move a clock and look often).
 * @throws InputError for a malformed value, before anything starts.
 */
export function keepAliveSettings(
  flags: KeepAliveFlags,
  byDefault: boolean,
  env: NodeJS.ProcessEnv = process.env,
): KeepAliveSettings | undefined {
  const switchedOff = env.TOOLSTEPS_KEEP_ALIVE?.trim().toLowerCase();
  if (flags.keepAlive === false) return undefined;
  if (switchedOff !== undefined && switchedOff !== '' && switchedOff !== 'on') {
    if (switchedOff === 'off') return undefined;
    throw new InputError('TOOLSTEPS_KEEP_ALIVE is on or off.', [
      { path: 'TOOLSTEPS_KEEP_ALIVE', message: 'on or off' },
    ]);
  }
  const every = flags.keepAliveEvery ?? env.TOOLSTEPS_KEEP_ALIVE_EVERY?.trim();
  if (!every && !byDefault) return undefined;
  const periodMs = every
    ? durationOption(every, flags.keepAliveEvery ? '--keep-alive-every' : 'TOOLSTEPS_KEEP_ALIVE_EVERY')
    : DEFAULT_KEEP_ALIVE_PERIOD_MS;
  const poll = env.TOOLSTEPS_KEEP_ALIVE_POLL_MS?.trim();
  const pollMs = poll
    ? integerOption(poll, 'TOOLSTEPS_KEEP_ALIVE_POLL_MS', { min: 20, max: 3_600_000 })
    : Math.min(DEFAULT_KEEP_ALIVE_POLL_MS, periodMs);
  return { periodMs, pollMs, windowMs: keepAliveWindowMs(env) };
}

/** What one scheduled pass did, over every tenant: the line a serving command writes. */
export interface KeptAlive {
  tenants: number;
  connections: number;
  refreshed: number;
  failed: { tenant: string; id: string; code: string }[];
  told: number;
  /** Revocations that had failed at a disconnect, retried by this pass: settled now, still pending, given up. */
  revocations: { settled: number; pending: number; gaveUp: number };
}

/**
 * Starts the keep-alive schedule of a serving command over every tenant's
 * connections in the CLI's stores: in Redis (one pass per period between
 * every process on it) when the stores are Redis's or Postgres's beside
 * Redis, in this process otherwise. Each change into `needs_reconnect` or
 * `expiring` (and back to `healthy`) goes to `tell`; each pass is reported
 * to `report`.
 */
export async function startKeepAliveLoop(
  settings: KeepAliveSettings,
  tell: (change: HealthChange) => Promise<void>,
  report: (kept: KeptAlive) => void,
  onError: (error: unknown) => void,
): Promise<{ stop(): Promise<void> }> {
  const [
    stores,
    registry,
    { Runtime },
    { keepAlivePass },
    { startKeepAliveSchedule },
    { retryPendingRevocations },
  ] = await Promise.all([
    cliStores(),
    cliRegistry(),
    import('../src/runtime/runtime.js'),
    import('../src/runtime/keep-alive-pass.js'),
    import('../src/runtime/keep-alive-schedule.js'),
    import('../src/connection/retry-pending-revocations.js'),
  ]);
  const coordination = stores.coordinator ? { coordination: stores.coordinator } : {};
  // One runtime per tenant for the life of the process: its refresher's single flight spans passes.
  const runtimes = new Map<TenantId, Runtime>();
  const runtimeOf = (tenant: TenantId) => {
    let runtime = runtimes.get(tenant);
    if (!runtime) {
      runtime = new Runtime({ tenant, tenantStores: stores.tenants, transport: 'undici', ...coordination });
      runtimes.set(tenant, runtime);
    }
    return runtime;
  };
  const pass = async () => {
    const kept: KeptAlive = {
      tenants: 0,
      connections: 0,
      refreshed: 0,
      failed: [],
      told: 0,
      revocations: { settled: 0, pending: 0, gaveUp: 0 },
    };
    for (const summary of await stores.tenants.tenants()) {
      if (summary.connections === 0) continue;
      const done = await keepAlivePass(runtimeOf(summary.tenant), {
        integration: (id) => registry.integration(id),
        windowMs: settings.windowMs,
        onHealthChange: tell,
      });
      kept.tenants += 1;
      kept.connections += Object.keys(done.health).length;
      kept.refreshed += done.refreshed.length;
      kept.told += done.told.length;
      kept.failed.push(...done.failed.map((failure) => ({ tenant: summary.tenant, ...failure })));
    }
    // Grants a disconnect could not revoke are tried again here too (each on its own backoff, claimed so
    // that one process sends it): a serving deployment needs no cron for them.
    const base = runtimeOf(DEFAULT_TENANT);
    const retried = await retryPendingRevocations(stores.tenants, {
      integration: (id) => registry.integration(id),
      clock: base.clock,
      logger: base.logger,
      fetch: base.fetch,
      dispatcher: base.httpDispatcher,
    });
    for (const { revocation } of retried.outcomes) {
      if (revocation.state === 'pending') kept.revocations.pending += 1;
      else if (revocation.state === 'gave_up') kept.revocations.gaveUp += 1;
      else kept.revocations.settled += 1;
    }
    report(kept);
  };
  return startKeepAliveSchedule({
    coordinator: stores.coordinator,
    periodMs: settings.periodMs,
    pollMs: settings.pollMs,
    pass,
    onError,
  });
}
