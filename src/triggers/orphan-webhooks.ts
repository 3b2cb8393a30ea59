import type { ErrorJson } from '../errors/index.js';
import { isToolstepsError } from '../errors/index.js';
import type { Subscription } from '../model/subscription.js';
import type { TenantId } from '../model/tenant-id.js';
import { withProviderSession } from '../runtime/provider-session.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AnyTrigger, ProviderContext } from './define-trigger.js';
import { hookIdUnder, type ListedWebhook, type RemovalOutcome } from './provider-webhook.js';

/** A webhook at the provider that delivers to one of our hook URLs. */
export interface HookedWebhook extends ListedWebhook {
  /** The connection whose account holds it. */
  connection: string;
  integration: string;
  /** The subscription id its URL names (`<base>/hooks/<id>`). */
  names: string;
}

/** What `triggers status` reports about webhooks at the providers that our records do not account for. */
export interface OrphanScan {
  /** Pointing at us and belonging to no subscription: `triggers prune` deletes them. */
  orphans: HookedWebhook[];
  /**
   * Naming a subscription still `provisioning` or `removing` that does not
   * record it (a create whose answer was lost): `activate` adopts it,
   * `remove` deletes it; never pruned.
   */
  unadopted: HookedWebhook[];
  /** Connections whose webhooks could not be read, and why. */
  unread: { connection: string; error: Pick<ErrorJson, 'code' | 'message'> }[];
}

/** What a scan reads: the registry's triggers, our subscriptions, and the base URLs that make a webhook ours. */
export interface OrphanScanOptions {
  runtime: Runtime;
  triggers: {
    /** Every trigger; only those whose webhooks can be listed at the provider are scanned. */
    listTriggers(): AnyTrigger[];
  };
  subscriptions: readonly Subscription[];
  /** Our public base URLs: a webhook points at us when it delivers under `<base>/hooks/`. */
  bases: readonly string[];
  /** Only this connection's account (default: every connection of an integration whose webhooks can be listed). */
  connection?: string | undefined;
}

/** Per integration, a trigger that can list and delete its webhooks (they share one admin). */
function listingTriggers(triggers: readonly AnyTrigger[]): Map<string, AnyTrigger> {
  const byIntegration = new Map<string, AnyTrigger>();
  for (const trigger of triggers) {
    if (trigger.webhook?.list && trigger.webhook.delete && !byIntegration.has(trigger.integration.id))
      byIntegration.set(trigger.integration.id, trigger);
  }
  return byIntegration;
}

type Verdict = 'owned' | 'unadopted' | 'orphan';

/** Whose a webhook naming `names` is: the subscription that records it (or was made by hand for it), one that may adopt it, or nobody's. */
function verdictOf(webhook: HookedWebhook, subscriptions: ReadonlyMap<string, Subscription>): Verdict {
  const subscription = subscriptions.get(webhook.names);
  if (!subscription) return 'orphan';
  // A manual subscription's webhook was pasted by a person: it is that subscription's, wherever it is.
  if (subscription.manual) return 'owned';
  if (subscription.connection !== webhook.connection) return 'orphan';
  if (Object.values(subscription.provider).includes(webhook.id)) return 'owned';
  return subscription.state === 'ready' ? 'orphan' : 'unadopted';
}

function hooked(webhook: ListedWebhook, bases: readonly string[], tenant: TenantId): string | undefined {
  for (const base of bases) {
    const id = hookIdUnder(webhook.url, base, tenant);
    if (id) return id;
  }
  return undefined;
}

/**
 * Runs `work` with a session on each connection to be scanned (only those
 * in `only`, when given), and the trigger whose admin it uses; a connection
 * that cannot be used is noted in `unread`.
 */
async function eachConnection(
  options: OrphanScanOptions,
  only: ReadonlySet<string> | undefined,
  work: (connection: string, trigger: AnyTrigger, context: ProviderContext) => Promise<void>,
  unread: OrphanScan['unread'],
): Promise<void> {
  const byIntegration = listingTriggers(options.triggers.listTriggers());
  const connections = (await options.runtime.store.list()).filter(
    (connection) =>
      byIntegration.has(connection.integration) &&
      (!options.connection || connection.id === options.connection) &&
      (!only || only.has(connection.id)),
  );
  for (const connection of connections) {
    const trigger = byIntegration.get(connection.integration) as AnyTrigger;
    try {
      await withProviderSession(options.runtime, trigger, connection.id, (session) =>
        work(connection.id, trigger, {
          http: session.http,
          connection: session.connection,
          log: session.log,
        }),
      );
    } catch (error) {
      if (!isToolstepsError(error)) throw error;
      unread.push({ connection: connection.id, error: { code: error.code, message: error.message } });
    }
  }
}

/**
 * Lists, at every connection's provider account, the webhooks that deliver
 * under one of our base URLs and sorts them: recorded by a subscription
 * (left out), waiting for their subscription to adopt them, or orphans.
 */
export async function findOrphanWebhooks(options: OrphanScanOptions): Promise<OrphanScan> {
  const scan: OrphanScan = { orphans: [], unadopted: [], unread: [] };
  const subscriptions = new Map(options.subscriptions.map((subscription) => [subscription.id, subscription]));
  await eachConnection(
    options,
    undefined,
    async (connection, trigger, context) => {
      const listed = (await trigger.webhook?.list?.(context)) ?? [];
      for (const webhook of listed) {
        const names = hooked(webhook, options.bases, options.runtime.tenant);
        if (!names) continue;
        const found = { ...webhook, connection, integration: trigger.integration.id, names };
        const verdict = verdictOf(found, subscriptions);
        if (verdict === 'orphan') scan.orphans.push(found);
        else if (verdict === 'unadopted') scan.unadopted.push(found);
      }
    },
    scan.unread,
  );
  return scan;
}

export interface PrunedWebhook extends HookedWebhook {
  outcome: RemovalOutcome | 'failed';
  error?: Pick<ErrorJson, 'code' | 'message'>;
}

/**
 * Deletes the orphans `findOrphanWebhooks` finds, one by one, and says what
 * became of each; a refusal (a rule still notifies it, say) is reported and
 * the rest go on. Webhooks a subscription records or may adopt are never touched.
 */
export async function pruneOrphanWebhooks(
  options: OrphanScanOptions,
): Promise<{ pruned: PrunedWebhook[]; unread: OrphanScan['unread'] }> {
  const scan = await findOrphanWebhooks(options);
  const pruned: PrunedWebhook[] = [];
  const unread: OrphanScan['unread'] = [...scan.unread];
  await eachConnection(
    options,
    new Set(scan.orphans.map((orphan) => orphan.connection)),
    async (connection, trigger, context) => {
      for (const orphan of scan.orphans.filter((item) => item.connection === connection)) {
        try {
          pruned.push({
            ...orphan,
            outcome: (await trigger.webhook?.delete?.(context, orphan.id)) ?? 'failed',
          });
        } catch (error) {
          if (!isToolstepsError(error)) throw error;
          pruned.push({ ...orphan, outcome: 'failed', error: { code: error.code, message: error.message } });
        }
      }
    },
    unread,
  );
  return { pruned, unread };
}
