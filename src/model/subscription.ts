import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { connectionIdPattern } from './connection.js';
import { DEFAULT_TENANT, isTenantId, TENANT_ID_PATTERN, type TenantId } from './tenant-id.js';

export const subscriptionIdPattern = /^sub_[a-z0-9]{8,40}$/;

/** Where deliveries for a subscription arrive, under the public base URL. */
export const HOOKS_PATH_PREFIX = '/hooks/';

/**
 * One subscription of a workflow to a trigger: which trigger, through which
 * connection, where deliveries arrive, what the provider created for it,
 * and the signing secret its deliveries must carry. The secret lives only
 * in the store; `toPublicSubscription` is what anything else sees.
 */
export const Subscription = z
  .object({
    id: z.string().regex(subscriptionIdPattern, 'sub_ followed by 8 to 40 letters and digits'),
    /**
     * The tenant it belongs to, when not the default one: it names the
     * subscription's URL (`<target>/hooks/<tenant>/<id>`), and the intake
     * serves a delivery only from that tenant's store. Absent on the
     * default tenant's, whose URL is `<target>/hooks/<id>` as before tenants.
     */
    tenant: z.string().regex(TENANT_ID_PATTERN, 'a tenant id').optional(),
    trigger: z.string().min(1).max(128),
    connection: z.string().regex(connectionIdPattern, 'a connection id'),
    /** Public base URL the provider reaches us at; deliveries go to `<target>/hooks/<id>`. */
    target: z.url({ protocol: /^https?$/ }),
    /** Ids of what the provider created (`webhook_id`, `trigger_id`), kept until removed there. */
    provider: z.record(z.string(), z.string()).default({}),
    /** The signing secret; without one every delivery is refused. */
    secret: z.string().min(1).max(512).optional(),
    /** Options of the trigger's setup schema, validated when the subscription is made. */
    setup: z.record(z.string(), z.unknown()).default({}),
    /** Variable name to JSONPath over the payload, added to the trigger's defaults. */
    mapping: z.record(z.string(), z.string()).default({}),
    /** Limits the embedder set, e.g. `{ projects: ['prj_1'] }`, enforced at intake. */
    constraints: z.record(z.string(), z.array(z.string())).default({}),
    active: z.boolean(),
    /** Made by hand in the provider's settings, so there is nothing to remove there. */
    manual: z.boolean().default(false),
    /** `provisioning` or `removing` while a provider call may have been cut short. */
    state: z.enum(['provisioning', 'ready', 'removing']).default('ready'),
    createdAt: z.number().int(),
    lastDeliveryAt: z.number().int().optional(),
  })
  .strict();
export type Subscription = z.output<typeof Subscription>;
export type SubscriptionInput = z.input<typeof Subscription>;

export function newSubscriptionId(): string {
  return `sub_${randomBytes(10).toString('hex')}`;
}

/** The tenant a subscription belongs to. */
export function subscriptionTenant(subscription: Pick<Subscription, 'tenant'>): TenantId {
  return (subscription.tenant ?? DEFAULT_TENANT) as TenantId;
}

/** The path of a subscription's hook: `<id>` for the default tenant, `<tenant>/<id>` for any other. */
function hookPath(subscription: Pick<Subscription, 'id' | 'tenant'>): string {
  const tenant = subscriptionTenant(subscription);
  return tenant === DEFAULT_TENANT ? subscription.id : `${tenant}/${subscription.id}`;
}

/**
 * The tenant and the id a hook path names (what follows `/hooks/`): `<id>`
 * is the default tenant's, `<tenant>/<id>` another's. Anything else,
 * `default/<id>` included (each subscription has one URL), names none. The
 * id is as found: whether it can be a subscription's is the caller's check.
 */
export function parseHookPath(rest: string): { tenant: TenantId; id: string } | undefined {
  const parts = rest.split('/');
  const [first, second] = parts;
  if (parts.length === 1 && first) return { tenant: DEFAULT_TENANT, id: first };
  if (parts.length !== 2 || !isTenantId(first) || first === DEFAULT_TENANT) return undefined;
  return second ? { tenant: first, id: second } : undefined;
}

/** `<target>/hooks/<id>` (another tenant's: `<target>/hooks/<tenant>/<id>`), the URL to give the provider. */
export function subscriptionUrl(subscription: Pick<Subscription, 'id' | 'target' | 'tenant'>): string {
  return `${subscription.target.replace(/\/+$/, '')}${HOOKS_PATH_PREFIX}${hookPath(subscription)}`;
}

/** The face of a subscription that the CLI, logs and JSON output may show: never the secret. */
export type PublicSubscription = Omit<Subscription, 'secret'> & { url: string; hasSecret: boolean };

/** Drops the signing secret and adds the delivery URL: the form every listing and JSON answer uses. */
export function toPublicSubscription(subscription: Subscription): PublicSubscription {
  const { secret, ...rest } = subscription;
  return { ...rest, url: subscriptionUrl(subscription), hasSecret: Boolean(secret) };
}
