import type * as z from 'zod';
import type { TenantId } from '../model/tenant-id.js';
import type { StreamedTriggerEvent } from './trigger-schemas.js';

export type StreamedEvent = z.output<typeof StreamedTriggerEvent>;
type Listener = (event: StreamedEvent) => void;

/** Open streams per tenant at most, so one tenant's tabs cannot hold every socket. */
export const MAX_STREAMS_PER_TENANT = 16;

/**
 * Open streams across every tenant at most, unless told otherwise: a stream
 * holds its connection for as long as it is open, so many tenants' streams
 * together must not take the connections requests need. Half of what one
 * address may hold (DEFAULT_BUILDER_CONNECTION_LIMITS), because behind a
 * TLS proxy every stream comes from that one address.
 */
export const DEFAULT_MAX_EVENT_STREAMS = 128;

/** A stream opened, or why not: the tenant's own streams, or the server's, are at their cap. */
export type Listening = { stop: () => void } | { refused: 'tenant' | 'server' };

/**
 * Hands each started trigger event to the open event streams of the tenant
 * it belongs to, and to no other tenant's.
 */
export class TriggerEventHub {
  private readonly listeners = new Map<TenantId, Set<Listener>>();
  private open = 0;

  constructor(private readonly maxStreams = DEFAULT_MAX_EVENT_STREAMS) {}

  /** Adds a listener, unless the tenant or the server already has its most streams open. */
  listen(tenant: TenantId, listener: Listener): Listening {
    const own = this.listeners.get(tenant) ?? new Set<Listener>();
    if (own.size >= MAX_STREAMS_PER_TENANT) return { refused: 'tenant' };
    if (this.open >= this.maxStreams) return { refused: 'server' };
    own.add(listener);
    this.listeners.set(tenant, own);
    this.open += 1;
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      this.open -= 1;
      own.delete(listener);
      if (!own.size) this.listeners.delete(tenant);
    };
    return { stop };
  }

  publish(tenant: TenantId, event: StreamedEvent): void {
    for (const listener of this.listeners.get(tenant) ?? []) listener(event);
  }

  /** Open streams, for tests and health checks. */
  count(tenant: TenantId): number {
    return this.listeners.get(tenant)?.size ?? 0;
  }
}
