import { HOOKS_PATH_PREFIX, parseHookPath } from '../model/subscription.js';
import { DEFAULT_TENANT, type TenantId } from '../model/tenant-id.js';

/**
 * A webhook as the provider lists it: enough to tell whose it is. Ours
 * deliver to `<target>/hooks/<subscription-id>`, and the URL is the marker
 * every provider keeps and shows, so a webhook whose create answer was lost
 * can be found again by it.
 */
export interface ListedWebhook {
  /** The provider's id of the webhook. */
  id: string;
  /** Where it delivers. */
  url: string;
  /** The provider's name for it, when it keeps one. */
  name?: string | undefined;
  /** The events it is subscribed to, in the provider's words. */
  events: readonly string[];
}

/** What deleting one thing at the provider did: deleted now, or found already deleted there. */
export type RemovalOutcome = 'removed' | 'already_gone';

/** One thing deleted (or found gone) at the provider: `webhook` or `rule`, its provider id, and what happened. */
export interface RemovedItem {
  kind: string;
  id: string;
  outcome: RemovalOutcome;
}

/** A URL in the one spelling the WHATWG parser gives it (lower-case host, default port dropped), or undefined. */
function canonicalUrl(value: string): string | undefined {
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}

/** Whether the listed webhook delivers to exactly `url`, spelled as the provider may have normalised it. */
export function deliversTo(webhook: ListedWebhook, url: string): boolean {
  const wanted = canonicalUrl(url);
  return wanted !== undefined && canonicalUrl(webhook.url) === wanted;
}

/**
 * The subscription id a webhook's URL names when it delivers under `base`
 * to one of `tenant`'s hooks (`<base>/hooks/<id>` for the default tenant,
 * `<base>/hooks/<tenant>/<id>` for another), or undefined when it points
 * elsewhere, another tenant's hook included: a tenant's scan never judges
 * another's webhooks, even on a provider account both connected. Query and
 * fragment are ignored: the intake routes by path alone.
 */
export function hookIdUnder(
  webhookUrl: string,
  base: string,
  tenant: TenantId = DEFAULT_TENANT,
): string | undefined {
  const root = canonicalUrl(base);
  const at = canonicalUrl(webhookUrl);
  if (!root || !at) return undefined;
  const url = new URL(at);
  const prefix = `${root.replace(/\/+$/, '')}${HOOKS_PATH_PREFIX}`;
  const bare = `${url.origin}${url.pathname}`;
  if (!bare.startsWith(prefix)) return undefined;
  const hook = parseHookPath(decodeURIComponent(bare.slice(prefix.length).replace(/\/+$/, '')));
  return hook?.tenant === tenant ? hook.id : undefined;
}
