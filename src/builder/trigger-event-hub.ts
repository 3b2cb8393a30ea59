import type * as z from 'zod';
import type { TenantId } from '../tenants/tenant-id.js';
import type { StreamedTriggerEvent } from './trigger-schemas.js';

export type StreamedEvent = z.output<typeof StreamedTriggerEvent>;
type Listener = (event: StreamedEvent) => void;

/** Open streams per tenant at most, so one tenant's tabs cannot hold every socket. */
export const MAX_STREAMS_PER_TENANT = 16;

/**
 * Hands each started trigger event to the open event streams of the tenant
 * it belongs to, and to no other tenant's.
 */
export class TriggerEventHub {
  private readonly listeners = new Map<TenantId, Set<Listener>>();

  /** Adds a listener; undefined when the tenant already has its most streams open. */
  listen(tenant: TenantId, listener: Listener): (() => void) | undefined {
    const own = this.listeners.get(tenant) ?? new Set<Listener>();
    if (own.size >= MAX_STREAMS_PER_TENANT) return undefined;
    own.add(listener);
    this.listeners.set(tenant, own);
    return () => {
      own.delete(listener);
      if (!own.size) this.listeners.delete(tenant);
    };
  }

  publish(tenant: TenantId, event: StreamedEvent): void {
    for (const listener of this.listeners.get(tenant) ?? []) listener(event);
  }

  /** Open streams, for tests and health checks. */
  count(tenant: TenantId): number {
    return this.listeners.get(tenant)?.size ?? 0;
  }
}
