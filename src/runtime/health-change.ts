import type { Coordinator } from '../coordination/coordinator.js';
import { LocalCoordinator } from '../coordination/local-coordinator.js';
import { isToolstepsError } from '../errors/index.js';
import type { Connection } from '../model/connection.js';
import type { ConnectionHealth, ConnectionHealthState } from '../model/connection-health.js';
import type { TriggerEvent } from '../model/trigger-event.js';
import type { Runtime } from './runtime.js';

/**
 * A connection's change into `needs_reconnect` or `expiring`, or back to
 * `healthy` from one of them: what the platform acts on (email the
 * organization's admin). Public facts only: never a token, never a
 * provider's words.
 */
export interface HealthChange {
  type: 'connection.needs_reconnect' | 'connection.expiring' | 'connection.healthy';
  /**
   * The change's id, the same in every worker that finds it: the connection,
   * the state, and the credentials' generation it happened in (`updatedAt`,
   * the time of the sign-in or refresh the state is about).
   */
  id: string;
  tenant: string;
  connection: { id: string; integration: string; label: string | null };
  health: Omit<ConnectionHealth, 'checkedAt'> & { checkedAt: string };
}

/** The subscription name health events carry where trigger events carry theirs. */
export const HEALTH_EVENTS_SUBSCRIPTION = 'connection-health';

/**
 * A health change in the shape the trigger paths carry (`listen`'s line,
 * the forward's body, `--exec`'s stdin, the worker queue's job): `trigger`
 * is the change's type, `event_id` its id (so the queue's job id dedupes it
 * as it dedupes a provider's retried delivery), `payload` the change.
 */
export function healthEvent(change: HealthChange): TriggerEvent {
  return {
    tenant: change.tenant,
    subscription: HEALTH_EVENTS_SUBSCRIPTION,
    trigger: change.type,
    event_id: change.id,
    occurred_at: change.health.checkedAt,
    variables: {
      connection_id: change.connection.id,
      integration: change.connection.integration,
      state: change.health.state,
    },
    payload: change,
  };
}

/** How long what was told is remembered, so no worker tells it twice. */
const TOLD_FOR_MS = 400 * 24 * 60 * 60_000;
/** How long one worker's telling holds off the others; then it is presumed dead and the change told again. */
const TELLING_FOR_MS = 10 * 60_000;

/** What was last told of one connection (kept in the coordinator: Redis when configured). */
interface Told {
  state: ConnectionHealthState;
  generation: number;
  phase: 'telling' | 'told';
  /** A telling's end (the runtime's clock): past it, the teller is presumed gone. */
  until?: number;
}

function parseTold(raw: string | undefined, now: number): Told | undefined {
  if (!raw) return undefined;
  try {
    const told = JSON.parse(raw) as Partial<Told>;
    if (told.phase === 'told') return told as Told;
    if (told.phase === 'telling' && (told.until ?? 0) > now) return told as Told;
  } catch {
    // Written by someone else: nothing in it can be trusted, so as if nothing was told.
  }
  return undefined;
}

const troubled = (state: ConnectionHealthState | undefined) =>
  state === 'needs_reconnect' || state === 'expiring';

const localCoordinators = new WeakMap<Runtime, Coordinator>();
/** Where the told records live: the runtime's coordinator (the tenant's keys in Redis), else one of this process. */
function coordinatorOf(runtime: Runtime): Coordinator {
  if (runtime.coordination) return runtime.coordination;
  let local = localCoordinators.get(runtime);
  if (!local) {
    local = new LocalCoordinator(runtime.clock);
    localCoordinators.set(runtime, local);
  }
  return local;
}

/** What one telling did: told (the change), nothing to tell, or a delivery that failed (to be tried next pass). */
export type Telling = { told: HealthChange } | { failed: string } | undefined;

/**
 * Tells a change into `needs_reconnect` or `expiring`, or back to `healthy`
 * after one was told, exactly once across workers: the worker that swaps
 * the connection's told record to `telling` delivers, then marks it
 * `told`; a delivery that throws puts the record back, so the next pass
 * tells it again; a teller that died is presumed gone after ten minutes.
 * The same state in the same generation is never told twice; a
 * reconnected connection that fails again is.
 */
export async function tellHealthChange(
  runtime: Runtime,
  connection: Connection,
  health: ConnectionHealth,
  deliver: ((change: HealthChange) => void | Promise<void>) | undefined,
): Promise<Telling> {
  const now = runtime.clock.now();
  const coordinator = coordinatorOf(runtime);
  const key = `connection-health:${connection.id}`;
  const raw = await coordinator.getValue(key);
  const told = parseTold(raw, now);
  if (told?.phase === 'telling') return undefined;
  const recovered = health.state === 'healthy' && troubled(told?.state);
  if (!troubled(health.state) && !recovered) return undefined;
  if (told?.state === health.state && told.generation === connection.updatedAt) return undefined;
  const telling: Told = {
    state: health.state,
    generation: connection.updatedAt,
    phase: 'telling',
    until: now + TELLING_FOR_MS,
  };
  const claim = JSON.stringify(telling);
  if (!(await coordinator.compareAndSet(key, raw, claim, TOLD_FOR_MS))) return undefined;
  const change: HealthChange = {
    type: `connection.${health.state}` as HealthChange['type'],
    id: `${connection.id}.${health.state}.${connection.updatedAt}`,
    tenant: runtime.tenant,
    connection: { id: connection.id, integration: connection.integration, label: connection.label ?? null },
    health: { ...health, checkedAt: new Date(health.checkedAt).toISOString() },
  };
  try {
    await deliver?.(change);
  } catch (error) {
    await coordinator.compareAndSet(key, claim, raw ?? '{}', TOLD_FOR_MS).catch(() => undefined);
    return { failed: isToolstepsError(error) ? error.code : 'health_event_not_delivered' };
  }
  const done = JSON.stringify({ state: telling.state, generation: telling.generation, phase: 'told' });
  await coordinator.compareAndSet(key, claim, done, TOLD_FOR_MS);
  return { told: change };
}
