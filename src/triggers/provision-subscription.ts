import { type Subscription, subscriptionUrl } from '../model/subscription.js';
import { writeOutcome } from '../model/write-outcome.js';
import { withProviderSession } from '../runtime/provider-session.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AnyTrigger, ProviderContext, ProvisionResult } from './define-trigger.js';
import { deliversTo, type ListedWebhook } from './provider-webhook.js';

/** The webhooks of the connection's account that deliver to `url`; none when the trigger cannot list them. */
export async function webhooksDeliveringTo(
  trigger: AnyTrigger,
  context: ProviderContext,
  url: string,
): Promise<ListedWebhook[]> {
  const list = trigger.webhook?.list;
  if (!list) return [];
  return (await list(context)).filter((webhook) => deliversTo(webhook, url));
}

export interface ProvisionRun {
  trigger: AnyTrigger;
  subscription: Subscription;
  /** The setup, parsed by the trigger's schema. */
  setup: unknown;
  /** Saves the provider ids (and the secret) as they become known. */
  record(provider: Record<string, string>, secret?: string): Promise<void>;
  /** An earlier attempt may have made something at the provider: look before creating. */
  retry: boolean;
  /** Who asked, for the provider session's audit record; default the runtime's caller. */
  caller?: string | undefined;
}

/**
 * Runs the trigger's provisioning so that a lost answer leaves neither a
 * second webhook nor an orphan. A retry first looks for webhooks that
 * already deliver to the subscription's URL (the marker: it names the
 * subscription id) and hands them to the trigger to adopt. A failure after
 * which the create may have taken effect (reset after sending, timeout, a
 * gateway's 5xx, an unreadable answer) is followed by the same look, and
 * the trigger runs once more with what it found: adopting it, or creating
 * anew when the look shows nothing was made. When the look itself fails,
 * the first error stands and the subscription stays `provisioning`, for
 * `activate` to retry or `remove` to clear, both by the same look.
 */
export async function provisionSubscription(runtime: Runtime, run: ProvisionRun): Promise<ProvisionResult> {
  const { trigger, subscription } = run;
  const url = subscriptionUrl(subscription);
  const known = { provider: { ...subscription.provider }, secretStored: Boolean(subscription.secret) };
  const record = async (provider: Record<string, string>, secret?: string) => {
    await run.record(provider, secret);
    known.provider = { ...provider };
    known.secretStored ||= Boolean(secret);
  };
  const on = { connection: subscription.connection, caller: run.caller };
  return withProviderSession(runtime, trigger, on, async (session) => {
    const base: ProviderContext = { http: session.http, connection: session.connection, log: session.log };
    const attempt = (existing: readonly ListedWebhook[]) =>
      trigger.provision({
        ...base,
        subscription: { id: subscription.id, url, setup: run.setup, constraints: subscription.constraints },
        existing,
        recorded: { ...known.provider },
        secretStored: known.secretStored,
        record,
      });
    const existing = run.retry ? await webhooksDeliveringTo(trigger, base, url) : [];
    try {
      return await attempt(existing);
    } catch (error) {
      if (writeOutcome(error) !== 'unknown' || !trigger.webhook?.list) throw error;
      let found: ListedWebhook[];
      try {
        found = await webhooksDeliveringTo(trigger, base, url);
      } catch {
        // Nothing more is known than before the look: the provisioning's own error says what happened.
        throw error;
      }
      session.log.warn('Provisioning answer lost; looked for the webhook by its URL.', {
        subscription: subscription.id,
        found: found.map((webhook) => webhook.id),
      });
      return attempt(found);
    }
  });
}
