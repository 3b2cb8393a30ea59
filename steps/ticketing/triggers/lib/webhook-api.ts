import * as z from 'zod';
import { type HttpClient, NotFoundError, type ProvisionContext } from '../../../../src/kit/index.js';

/** The webhook and business-rule APIs of the ticketing provider (spec/openapi/zendesk-webhooks-api.yaml, Triggers). */
export const ticketingWebhookPaths = {
  webhooks: '/api/v2/webhooks',
  webhook: '/api/v2/webhooks/{id}',
  signingSecret: '/api/v2/webhooks/{id}/signing_secret',
  triggers: '/api/v2/triggers.json',
  trigger: '/api/v2/triggers/{id}.json',
} as const;

/** Provider ids go into paths, so only a plain segment passes. */
const ProviderId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a plain id');

const CreatedWebhook = z.object({ webhook: z.object({ id: ProviderId }).loose() }).loose();
const SigningSecret = z
  .object({ signing_secret: z.object({ secret: z.string().min(8).max(512) }).loose() })
  .loose();

export function providerPath(name: 'webhook' | 'signingSecret' | 'trigger', id: string): string {
  return ticketingWebhookPaths[name].replace('{id}', encodeURIComponent(ProviderId.parse(id)));
}

/**
 * `POST /api/v2/webhooks` to the subscription's URL with the given
 * subscriptions; the id is recorded before anything else is asked, so a
 * failure after it leaves a subscription `remove` can clean up.
 */
export async function createWebhook(
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
  const webhookId = CreatedWebhook.parse(created.body).webhook.id;
  await context.record({ webhook_id: webhookId });
  return webhookId;
}

/** `GET /api/v2/webhooks/{id}/signing_secret`, recorded at once. */
export async function readSigningSecret(
  context: ProvisionContext<unknown>,
  webhookId: string,
): Promise<string> {
  const answer = await context.http.request({
    method: 'GET',
    path: providerPath('signingSecret', webhookId),
  });
  const secret = SigningSecret.parse(answer.body).signing_secret.secret;
  await context.record({ webhook_id: webhookId }, secret);
  return secret;
}

export async function deleteIfPresent(http: HttpClient, path: string): Promise<void> {
  try {
    await http.request({ method: 'DELETE', path });
  } catch (error) {
    // Already gone is the state remove wants.
    if (!(error instanceof NotFoundError)) throw error;
  }
}
