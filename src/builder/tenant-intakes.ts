import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTenantId, type TenantId } from '../tenants/tenant-id.js';
import { createIntake } from '../triggers/intake/intake.js';
import { toNodeListener } from '../triggers/intake/node-listener.js';
import type { TriggerEvent } from '../triggers/trigger-event.js';
import type { BuilderServerOptions } from './builder-options.js';
import type { TriggerEventHub } from './trigger-event-hub.js';

/** `/tenants/<tenant>/hooks/<subscription>`: the tenant first, so each intake sees only its tenant's subscriptions. */
const TENANT_HOOK = /^\/tenants\/([^/]+)(\/hooks\/[^/?]*)(\?.*)?$/;

/** The id `testSubscription` gives its sample events, so the stream can say which are tests. */
const TEST_EVENT_PREFIX = 'toolsteps-test-';

/** Intakes kept at once; one is cheap to make again. */
const MAX_INTAKES = 1_024;

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * One webhook intake per tenant, on the builder server: a delivery's path
 * names the tenant, and its intake looks the subscription up in that
 * tenant's records only, then runs every stage (verify, window, dedupe,
 * filter, map) before the event is streamed to that tenant's pages.
 */
export class TenantIntakes {
  private readonly listeners = new Map<TenantId, Listener>();

  constructor(
    private readonly options: BuilderServerOptions,
    private readonly hub: TriggerEventHub,
  ) {}

  /** Whether the path is a delivery; the listener is then given it with the tenant part removed. */
  handles(request: IncomingMessage, response: ServerResponse): boolean {
    const match = TENANT_HOOK.exec(request.url ?? '');
    if (!match) return false;
    const [, tenant, hookPath, search] = match;
    if (!isTenantId(tenant)) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":"unknown_subscription"}');
      return true;
    }
    let listener: Listener;
    try {
      listener = this.listenerFor(tenant);
    } catch {
      // A backend that cannot hold this tenant has no subscription of it.
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"status":"unknown_subscription"}');
      return true;
    }
    request.url = `${hookPath}${search ?? ''}`;
    listener(request, response);
    return true;
  }

  private listenerFor(tenant: TenantId): Listener {
    const known = this.listeners.get(tenant);
    if (known) return known;
    const { options, hub } = this;
    const intake = createIntake({
      subscriptions: options.tenants.forTenant(tenant).subscriptions,
      triggers: options.registry,
      dedupe: options.dedupe,
      ...(options.clock ? { clock: options.clock } : {}),
      handler: async (event: TriggerEvent, handOff) => {
        hub.publish(tenant, {
          subscription: event.subscription,
          trigger: event.trigger,
          eventId: event.event_id,
          occurredAt: event.occurred_at,
          receivedAt: new Date((options.clock?.now ?? Date.now)()).toISOString(),
          variables: event.variables,
          payload: event.payload,
          test: event.event_id.startsWith(TEST_EVENT_PREFIX),
        });
        await options.onEvent?.(tenant, event, handOff);
      },
    });
    const listener = toNodeListener(intake);
    // Any path names a tenant: keep a bounded number of intakes, so made-up names cannot grow the process.
    if (this.listeners.size >= MAX_INTAKES) this.listeners.delete(this.listeners.keys().next().value!);
    this.listeners.set(tenant, listener);
    return listener;
  }
}
