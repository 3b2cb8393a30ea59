import * as z from 'zod';
import {
  builtOnce,
  deleteIfPresent,
  NotFoundError,
  type WebhookAdmin,
  type WebhookContext,
} from '../../../../src/kit/index.js';
import { listWebhooks, providerPath, ticketingWebhookPaths } from './webhook-api.js';

const ShownWebhook = builtOnce(() =>
  z.object({
    webhook: z
      .object({
        status: z.string().max(40).nullish(),
        endpoint: z.string().max(2000).nullish(),
        subscriptions: z.array(z.string().max(200)).max(50).nullish(),
      })
      .loose(),
  }),
);

const TestAnswer = builtOnce(() =>
  z.object({
    test: z
      .object({
        status: z.string().max(40).nullish(),
        response_code: z.number().int().nullish(),
        message: z.string().max(500).nullish(),
      })
      .loose(),
  }),
);

function webhookIdOf(context: WebhookContext): string {
  const id = context.subscription.provider.webhook_id;
  if (!id) throw new NotFoundError('The subscription records no webhook at the provider.');
  return id;
}

/**
 * `GET /api/v2/webhooks/{id}` ("Show Webhook") for its state, and
 * `POST /api/v2/webhooks/test?webhook_id=` ("Test Webhook"), which sends one
 * request now, signed with the saved webhook's secret. The vendored
 * description puts the target in `webhook`; the provider's guide sends the
 * body in `request.payload`: both are sent. "List Webhooks" finds ours by
 * endpoint; "Delete Webhook" removes an orphan (the provider refuses while
 * a rule still notifies it, and the refusal is reported, not overridden).
 */
export const ticketingWebhookAdmin: WebhookAdmin = {
  async status(context) {
    try {
      const answer = await context.http.request({
        method: 'GET',
        path: providerPath('webhook', webhookIdOf(context)),
      });
      const { status, endpoint, subscriptions } = ShownWebhook().parse(answer.body).webhook;
      return {
        exists: true,
        state: status ?? null,
        details: {
          ...(endpoint ? { endpoint } : {}),
          ...(subscriptions?.length ? { subscriptions: subscriptions.join(', ') } : {}),
        },
      };
    } catch (error) {
      if (error instanceof NotFoundError) return { exists: false, state: null, details: {} };
      throw error;
    }
  },
  list: (context) => listWebhooks(context.http),
  delete: (context, webhookId) => deleteIfPresent(context.http, providerPath('webhook', webhookId)),
  async test(context, payload) {
    const target = { endpoint: context.subscription.url, http_method: 'POST', request_format: 'json' };
    const answer = await context.http.request({
      method: 'POST',
      path: `${ticketingWebhookPaths.webhooks}/test`,
      query: { webhook_id: webhookIdOf(context) },
      body: { webhook: target, request: { ...target, payload } },
    });
    const { status, response_code: code, message } = TestAnswer().parse(answer.body).test;
    return {
      delivered: status === 'success',
      status: code ?? null,
      message: message ?? status ?? 'no message',
    };
  },
};
