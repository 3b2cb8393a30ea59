import { z } from 'zod';
import { NotFoundError } from '../../../../src/errors.js';
import type { HttpClient } from '../../../../src/http/http-client.js';
import type { ProvisionContext, ProvisionResult, RemoveContext } from '../../../../src/trigger.js';

/** The webhook API of the ticketing provider (spec/openapi/zendesk-webhooks-api.yaml). */
export const ticketingWebhookPaths = {
  webhooks: '/api/v2/webhooks',
  webhook: '/api/v2/webhooks/{id}',
  signingSecret: '/api/v2/webhooks/{id}/signing_secret',
  trigger: '/api/v2/triggers/{id}.json',
} as const;

/** Provider ids go into paths, so only a plain segment passes. */
const WebhookId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a plain id');

const CreatedWebhook = z.object({ webhook: z.object({ id: WebhookId }).loose() }).loose();
const SigningSecret = z
  .object({ signing_secret: z.object({ secret: z.string().min(8).max(512) }).loose() })
  .loose();

function pathWith(name: keyof typeof ticketingWebhookPaths, id: string): string {
  return ticketingWebhookPaths[name].replace('{id}', encodeURIComponent(WebhookId.parse(id)));
}

/**
 * Provisions an event webhook: `POST /api/v2/webhooks` subscribed to one
 * `zen:event-type:*` event, then reads its signing secret. The webhook id is
 * recorded before the secret is asked for, so a failure in between leaves
 * a subscription `remove` can clean up.
 */
export function provisionEventWebhook(eventType: string) {
  return async (context: ProvisionContext<unknown>): Promise<ProvisionResult> => {
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
          subscriptions: [`zen:event-type:${eventType}`],
        },
      },
    });
    const webhookId = CreatedWebhook.parse(created.body).webhook.id;
    const provider = { webhook_id: webhookId };
    await context.record(provider);
    const answer = await context.http.request({ method: 'GET', path: pathWith('signingSecret', webhookId) });
    const secret = SigningSecret.parse(answer.body).signing_secret.secret;
    await context.record(provider, secret);
    return { provider, secret };
  };
}

async function deleteIfPresent(http: HttpClient, path: string): Promise<void> {
  try {
    await http.request({ method: 'DELETE', path });
  } catch (error) {
    // Already gone is the state remove wants.
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/**
 * Deletes the business rule first (a rule that notifies a missing webhook
 * is an error at the provider), then the webhook, recording after each so
 * a failure leaves exactly what is still to delete.
 */
export async function removeEventWebhook(context: RemoveContext): Promise<void> {
  const remaining: Record<string, string> = { ...context.provider };
  if (remaining.trigger_id) {
    await deleteIfPresent(context.http, pathWith('trigger', remaining.trigger_id));
    delete remaining.trigger_id;
    await context.record(remaining);
  }
  if (remaining.webhook_id) {
    await deleteIfPresent(context.http, pathWith('webhook', remaining.webhook_id));
    delete remaining.webhook_id;
    await context.record(remaining);
  }
}
