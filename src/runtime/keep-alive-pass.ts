import { healthOfCheck } from '../connection/check-health.js';
import { assessHealth, DEFAULT_KEEP_ALIVE_WINDOW_MS } from '../connection/connection-health.js';
import { recordLifecycle } from '../connection/record-lifecycle.js';
import { refreshTokenEnd } from '../connection/refresh-token-end.js';
import { isToolstepsError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { ConnectionHealth, ConnectionHealthState } from '../model/connection-health.js';
import type { Integration } from '../model/define-integration.js';
import { type HealthChange, tellHealthChange } from './health-change.js';
import { runConnectionCheck } from './run-connection-check.js';
import type { Runtime } from './runtime.js';

/** A connection without a refresh token is checked with a provider read at most this often, by default. */
export const DEFAULT_CHECK_EVERY_MS = 24 * 60 * 60_000;
/** What one keep-alive pass needs: the integrations it knows, its window and schedule, and whom to tell. */
export interface KeepAliveOptions {
  /** The integration of an id (a registry's `integration`), or undefined when unknown: such connections are left alone. */
  integration(id: string): Integration | undefined;
  /** A refresh token that ends within this is renewed now (default 7 days). */
  windowMs?: number;
  /** A connection without a refresh token is checked with a provider read at most this often (default a day). */
  checkEveryMs?: number;
  /**
   * Told each change into `needs_reconnect` or `expiring`, and back to
   * `healthy` after one, once, whichever worker finds it. A throw leaves
   * it untold (the pass reports it failed): the next pass tells it again.
   */
  onHealthChange?(change: HealthChange): void | Promise<void>;
}

/** What one pass did, by connection id. */
export interface KeepAliveReport {
  refreshed: string[];
  checked: string[];
  /** Connections whose renewal, check or health event failed, with the error's code. */
  failed: { id: string; code: string }[];
  health: Record<string, ConnectionHealthState>;
  /** The changes told (`onHealthChange`) by this pass. */
  told: HealthChange[];
}

/** The error code a failed renewal or check records, and the health it means when it says anything. */
function failureOf(error: unknown, now: number): { code: string; health: ConnectionHealth | undefined } {
  const code = isToolstepsError(error) ? error.code : 'internal_error';
  return { code, health: healthOfCheck(false, code, now) };
}

/**
 * Renews one connection whose refresh token ends within the window (the
 * refresher checks again under the connection's lock, so one worker of
 * many sends it), or checks one that has no refresh token when its last
 * check is old enough. What happened is written on the connection.
 */
async function tend(
  runtime: Runtime,
  integration: Integration,
  connection: Connection,
  options: Required<Pick<KeepAliveOptions, 'windowMs' | 'checkEveryMs'>>,
  report: KeepAliveReport,
): Promise<void> {
  const now = runtime.clock.now();
  if (runtime.refresher.canRefresh(integration, connection)) {
    // A refresh token past its end is not sent: the provider would refuse it, and the health says so already.
    const end = refreshTokenEnd(connection, integration);
    if (end !== undefined && end <= now) return;
    try {
      const sentBefore = runtime.refresher.refreshCount;
      await runtime.refresher.refreshAhead(integration, connection, options.windowMs);
      // Only the worker that sent the refresh reports it; the others found it renewed under the lock.
      if (runtime.refresher.refreshCount > sentBefore) report.refreshed.push(connection.id);
    } catch (error) {
      const failure = failureOf(error, now);
      report.failed.push({ id: connection.id, code: failure.code });
      // A refusal is recorded by the refresher itself; a network failure says the provider is out of reach.
      if (failure.health?.state === 'unreachable' || failure.health?.state === 'rate_limited') {
        await recordLifecycle(runtime.store, connection.id, { health: failure.health });
      }
    }
    return;
  }
  if (connection.health && now - connection.health.checkedAt < options.checkEveryMs) return;
  const result = await runConnectionCheck(runtime, integration, connection.id, 'keep-alive');
  report.checked.push(connection.id);
  if (result.ok === false) report.failed.push({ id: connection.id, code: result.code ?? 'check_failed' });
  const found = healthOfCheck(result.ok, result.code, now);
  if (found) await recordLifecycle(runtime.store, connection.id, { health: found });
}

/**
 * One keep-alive pass over the runtime's tenant's connections: each refresh
 * token that ends within the window is renewed ahead of time, once across
 * every worker sharing the store (the refresher's lock and write-ahead
 * record); each connection without one is checked with a provider read on
 * a slower schedule; each one's health is recorded, and a change into
 * `needs_reconnect` or `expiring` is told once (`onHealthChange`). Safe to
 * run in many workers at once; `toolsteps worker`, `toolsteps serve` and
 * `toolsteps connections keep-alive` run it.
 */
export async function keepAlivePass(runtime: Runtime, options: KeepAliveOptions): Promise<KeepAliveReport> {
  const settings = {
    windowMs: options.windowMs ?? DEFAULT_KEEP_ALIVE_WINDOW_MS,
    checkEveryMs: options.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS,
  };
  const report: KeepAliveReport = { refreshed: [], checked: [], failed: [], health: {}, told: [] };
  for (const listed of await runtime.store.list()) {
    const integration = options.integration(listed.integration);
    if (!integration) continue;
    await tend(runtime, integration, listed, settings, report);
    const latest = (await runtime.store.get(listed.id)) ?? listed;
    const health = assessHealth(latest, integration, runtime.clock.now(), settings.windowMs);
    report.health[listed.id] = health.state;
    if (latest.health?.state !== health.state) {
      await recordLifecycle(runtime.store, listed.id, { health });
    }
    const telling = await tellHealthChange(runtime, latest, health, options.onHealthChange);
    if (telling && 'told' in telling) report.told.push(telling.told);
    if (telling && 'failed' in telling) report.failed.push({ id: listed.id, code: telling.failed });
  }
  return report;
}
