import * as z from 'zod';
import {
  builtOnce,
  definedOnly,
  deleteIfPresent,
  type HttpClient,
  type ListedWebhook,
  NotFoundError,
  type ProvisionContext,
  type ProvisionResult,
  type RemovalOutcome,
  type RemoveContext,
  type RemovedItem,
  type WebhookAdmin,
} from '../../../../src/kit/index.js';
import { allowedProjects } from '../../lib/project-scope.js';

/** The webhook API of the deployments provider (spec/openapi/vercel-api.json); `teamId` comes from the connection. */
export const deploymentsWebhookPaths = {
  webhooks: '/v1/webhooks',
  webhook: '/v1/webhooks/{id}',
} as const;

const WebhookId = builtOnce(() => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a plain id'));
const CreatedWebhook = builtOnce(() =>
  z.object({ id: WebhookId(), secret: z.string().min(8).max(512) }).loose(),
);

function webhookPath(id: string): string {
  return deploymentsWebhookPaths.webhook.replace('{id}', encodeURIComponent(WebhookId().parse(id)));
}

/** `DELETE /v1/webhooks/{id}`: `already_gone` when the provider has none by that id. */
function deleteWebhook(http: HttpClient, id: string): Promise<RemovalOutcome> {
  return deleteIfPresent(http, webhookPath(id));
}

const ListedWebhooks = builtOnce(() =>
  z.array(
    z
      .object({
        id: WebhookId(),
        url: z.string().max(2000),
        events: z.array(z.string().max(200)).max(100).nullish(),
      })
      .loose(),
  ),
);

/**
 * `GET /v1/webhooks` (with the connection's `teamId`): every webhook of the
 * account or team, in one answer (the endpoint has no pages).
 */
async function listWebhooks(http: HttpClient): Promise<ListedWebhook[]> {
  const answer = await http.request({ method: 'GET', path: deploymentsWebhookPaths.webhooks });
  return ListedWebhooks()
    .parse(answer.body)
    .map((webhook) => ({
      id: webhook.id,
      url: webhook.url,
      events: webhook.events ?? [],
    }));
}

/**
 * `POST /v1/webhooks {url, events, projectIds}`. The secret is in this
 * answer only, so it is recorded with the id at once. Project scoping (the
 * `projects` constraint) becomes `projectIds`, and is enforced again at
 * intake. A webhook an earlier attempt made (found by its URL) cannot be
 * adopted unless its secret was stored: its secret cannot be read again,
 * so it is deleted and replaced, leaving exactly one.
 */
export function provisionDeploymentWebhook(eventType: string) {
  return async (context: ProvisionContext<unknown>): Promise<ProvisionResult> => {
    const recorded = context.recorded.webhook_id;
    const kept = context.existing.find((webhook) => webhook.id === recorded && context.secretStored);
    for (const webhook of context.existing) {
      if (webhook !== kept) await deleteWebhook(context.http, webhook.id);
    }
    if (kept) return { provider: { webhook_id: kept.id } };
    const projects = allowedProjects(context.subscription.constraints);
    const created = await context.http.request({
      method: 'POST',
      path: deploymentsWebhookPaths.webhooks,
      body: definedOnly({
        url: context.subscription.url,
        events: [eventType],
        projectIds: projects ? [...projects] : undefined,
      }),
    });
    const webhook = CreatedWebhook().parse(created.body);
    const provider = { webhook_id: webhook.id };
    await context.record(provider, webhook.secret);
    return { provider, secret: webhook.secret };
  };
}

export async function removeDeploymentWebhook(context: RemoveContext): Promise<RemovedItem[]> {
  const remaining: Record<string, string> = { ...context.provider };
  const id = remaining.webhook_id;
  if (!id) return [];
  const outcome = await deleteWebhook(context.http, id);
  delete remaining.webhook_id;
  await context.record(remaining);
  return [{ kind: 'webhook', id, outcome }];
}

const ShownWebhook = builtOnce(() =>
  z
    .object({
      url: z.string().max(2000).nullish(),
      events: z.array(z.string().max(200)).max(100).nullish(),
      projectIds: z.array(z.string().max(200)).max(100).nullish(),
    })
    .loose(),
);

/**
 * `GET /v1/webhooks/{id}` for what the provider holds. The provider keeps no
 * on/off state (a webhook that exists delivers) and its API has no test or
 * ping of a webhook, so there is no `test`.
 */
export const deploymentsWebhookAdmin: WebhookAdmin = {
  async status(context) {
    const id = context.subscription.provider.webhook_id;
    if (!id) return { exists: false, state: null, details: {} };
    try {
      const answer = await context.http.request({ method: 'GET', path: webhookPath(id) });
      const { url, events, projectIds } = ShownWebhook().parse(answer.body);
      return {
        exists: true,
        state: null,
        details: definedOnly({
          url: url ?? undefined,
          events: events?.join(', '),
          projects: projectIds?.length ? projectIds.join(', ') : undefined,
        }),
      };
    } catch (error) {
      if (error instanceof NotFoundError) return { exists: false, state: null, details: {} };
      throw error;
    }
  },
  list: (context) => listWebhooks(context.http),
  delete: (context, webhookId) => deleteWebhook(context.http, webhookId),
  noTest:
    'The deployments provider has no test delivery (its API offers no webhook test or ping). To see a real one against the sandbox, make an event happen: run deployments.create_deployment with a connection to the sandbox, and the sandbox delivers it, signed, to this subscription.',
};
