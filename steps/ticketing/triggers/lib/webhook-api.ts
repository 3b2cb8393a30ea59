import * as z from 'zod';
import {
  builtOnce,
  deleteIfPresent,
  type HttpClient,
  type ListedWebhook,
  type ProvisionContext,
} from '../../../../src/kit/index.js';
import { cursorPages } from './cursor-pages.js';

/** The webhook and business-rule APIs of the ticketing provider (spec/openapi/zendesk-webhooks-api.yaml, Triggers). */
export const ticketingWebhookPaths = {
  webhooks: '/api/v2/webhooks',
  webhook: '/api/v2/webhooks/{id}',
  signingSecret: '/api/v2/webhooks/{id}/signing_secret',
  triggers: '/api/v2/triggers.json',
  trigger: '/api/v2/triggers/{id}.json',
} as const;

/** Provider ids go into paths, so only a plain segment passes. */
const ProviderId = builtOnce(() => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a plain id'));

const CreatedWebhook = builtOnce(() => z.object({ webhook: z.object({ id: ProviderId() }).loose() }).loose());
const SigningSecret = builtOnce(() =>
  z.object({ signing_secret: z.object({ secret: z.string().min(8).max(512) }).loose() }).loose(),
);

export function providerPath(name: 'webhook' | 'signingSecret' | 'trigger', id: string): string {
  return ticketingWebhookPaths[name].replace('{id}', encodeURIComponent(ProviderId().parse(id)));
}

/**
 * `POST /api/v2/webhooks` to the subscription's URL (the marker that finds
 * it again: the name says the subscription too, but a person may rename
 * it) with the given subscriptions; the id is recorded before anything
 * else is asked, so a failure after it leaves a subscription `remove` can
 * clean up.
 */
async function createWebhook(
  context: ProvisionContext<unknown>,
  subscriptions: string[],
  eventType: string,
): Promise<string> {
  const created = await context.http.request({
    method: 'POST',
    path: ticketingWebhookPaths.webhooks,
    body: {
      webhook: {
        name: `toolsteps ${context.subscription.id}`,
        description: `Starts agents on ${eventType} (toolsteps subscription ${context.subscription.id}).`,
        endpoint: context.subscription.url,
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions,
      },
    },
  });
  return CreatedWebhook().parse(created.body).webhook.id;
}

/**
 * The subscription's webhook: one an earlier attempt made (found at the
 * provider by its URL, the recorded one first), with any others deleted,
 * or else a new one. Its id is recorded with `alongside` (a rule that may
 * exist) before anything else is asked.
 */
export async function adoptOrCreateWebhook(
  context: ProvisionContext<unknown>,
  subscriptions: string[],
  eventType: string,
  alongside: Record<string, string> = {},
): Promise<string> {
  const recorded = context.recorded.webhook_id;
  const [kept, ...others] = [...context.existing].sort(
    (a, b) => Number(b.id === recorded) - Number(a.id === recorded),
  );
  for (const other of others) await deleteIfPresent(context.http, providerPath('webhook', other.id));
  const webhookId = kept?.id ?? (await createWebhook(context, subscriptions, eventType));
  await context.record({ webhook_id: webhookId, ...alongside });
  return webhookId;
}

/** `GET /api/v2/webhooks/{id}/signing_secret`, recorded at once (with `alongside`, as above). */
export async function readSigningSecret(
  context: ProvisionContext<unknown>,
  webhookId: string,
  alongside: Record<string, string> = {},
): Promise<string> {
  const answer = await context.http.request({
    method: 'GET',
    path: providerPath('signingSecret', webhookId),
  });
  const secret = SigningSecret().parse(answer.body).signing_secret.secret;
  await context.record({ webhook_id: webhookId, ...alongside }, secret);
  return secret;
}

const WebhookPage = builtOnce(() =>
  z
    .object({
      webhooks: z.array(
        z
          .object({
            id: ProviderId(),
            name: z.string().max(500).nullish(),
            endpoint: z.string().max(2000).nullish(),
            subscriptions: z.array(z.string().max(200)).max(50).nullish(),
          })
          .loose(),
      ),
      meta: z
        .object({ has_more: z.boolean().nullish(), after_cursor: z.string().nullish() })
        .loose()
        .nullish(),
    })
    .loose(),
);

/**
 * "List Webhooks" (`GET /api/v2/webhooks`, cursor pages of 100, at most 50
 * pages): every webhook of the account, to find ours by the endpoint that
 * names the subscription. A webhook without an endpoint is none of ours.
 */
export async function listWebhooks(http: HttpClient): Promise<ListedWebhook[]> {
  const found: ListedWebhook[] = [];
  for await (const { webhooks } of cursorPages(http, ticketingWebhookPaths.webhooks, (body) =>
    WebhookPage().parse(body),
  )) {
    for (const webhook of webhooks) {
      if (!webhook.endpoint) continue;
      found.push({
        id: webhook.id,
        url: webhook.endpoint,
        name: webhook.name ?? undefined,
        events: webhook.subscriptions ?? [],
      });
    }
  }
  return found;
}
