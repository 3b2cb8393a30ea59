import { HOOKS_PATH_PREFIX } from '../model/subscription.js';
import type { TenantId } from '../model/tenant-id.js';
import type { TriggerEvent } from '../model/trigger-event.js';
import { createIntake, type Intake } from '../triggers/intake/intake.js';
import type { IntakeTenant } from '../triggers/intake/intake-tenants.js';
import type { BuilderServerOptions } from './builder-options.js';
import type { TriggerEventHub } from './trigger-event-hub.js';

/** The id `testSubscription` gives its sample events, so the stream can say which are tests. */
const TEST_EVENT_PREFIX = 'toolsteps-test-';

/**
 * Without `intakeTenants`: a tenant is served when it holds a subscription,
 * its events deduplicated in the server's one `dedupe` store (keys name the
 * subscription, whose id is the tenant's own). The tenant comes from an
 * unauthenticated path, so it is asked about before any view is made.
 */
function subscribedTenants(options: BuilderServerOptions) {
  return async (tenant: TenantId): Promise<IntakeTenant | undefined> => {
    if (!(await options.tenants.holdsSubscriptions(tenant))) return undefined;
    return { subscriptions: options.tenants.forTenant(tenant).subscriptions, dedupe: options.dedupe };
  };
}

/**
 * The builder server's webhook intake: the same one `toolsteps listen` runs,
 * at the same paths (`/hooks/<tenant>/<subscription>`, the default tenant's
 * at `/hooks/<subscription>`), so a subscription made through the builder
 * and one made with the CLI are served alike. Each delivery is looked up in
 * its path's tenant's records only, runs every stage (verify, window,
 * dedupe, filter, map), and its event is streamed to that tenant's pages.
 */
export function tenantIntake(options: BuilderServerOptions, hub: TriggerEventHub): Intake {
  return createIntake({
    tenants: options.intakeTenants ?? subscribedTenants(options),
    triggers: options.registry,
    ...(options.clock ? { clock: options.clock } : {}),
    handler: async (event: TriggerEvent, handOff) => {
      const tenant = event.tenant as TenantId;
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
}

/** Whether a request path is a webhook delivery. */
export function isHookPath(pathname: string): boolean {
  return pathname.startsWith(HOOKS_PATH_PREFIX);
}
