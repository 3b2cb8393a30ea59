import * as z from 'zod';
import {
  definedOnly,
  NotFoundError,
  type ProvisionContext,
  type ProvisionResult,
  type RemoveContext,
  type WebhookAdmin,
} from '../../../../src/kit/index.js';
import { allowedProjects } from '../../lib/project-scope.js';

/** The webhook API of the deployments provider (spec/openapi/vercel-api.json); `teamId` comes from the connection. */
export const deploymentsWebhookPaths = {
  webhooks: '/v1/webhooks',
  webhook: '/v1/webhooks/{id}',
} as const;

const WebhookId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a plain id');
const CreatedWebhook = z.object({ id: WebhookId, secret: z.string().min(8).max(512) }).loose();

function webhookPath(id: string): string {
  return deploymentsWebhookPaths.webhook.replace('{id}', encodeURIComponent(WebhookId.parse(id)));
}

/**
 * `POST /v1/webhooks {url, events, projectIds}`. The secret is in this
 * answer only, so it is recorded with the id at once. Project scoping (the
 * `projects` constraint) becomes `projectIds`, and is enforced again at intake.
 */
export function provisionDeploymentWebhook(eventType: string) {
  return async (context: ProvisionContext<unknown>): Promise<ProvisionResult> => {
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
    const webhook = CreatedWebhook.parse(created.body);
    const provider = { webhook_id: webhook.id };
    await context.record(provider, webhook.secret);
    return { provider, secret: webhook.secret };
  };
}

export async function removeDeploymentWebhook(context: RemoveContext): Promise<void> {
  const remaining: Record<string, string> = { ...context.provider };
  if (!remaining.webhook_id) return;
  try {
    await context.http.request({ method: 'DELETE', path: webhookPath(remaining.webhook_id) });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  delete remaining.webhook_id;
  await context.record(remaining);
}

const ShownWebhook = z
  .object({
    url: z.string().max(2000).nullish(),
    events: z.array(z.string().max(200)).max(100).nullish(),
    projectIds: z.array(z.string().max(200)).max(100).nullish(),
  })
  .loose();

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
      const { url, events, projectIds } = ShownWebhook.parse(answer.body);
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
  noTest:
    'The deployments provider has no test delivery (its API offers no webhook test or ping). To see a real one against the sandbox, make an event happen: run deployments.create_deployment with a connection to the sandbox, and the sandbox delivers it, signed, to this subscription.',
};
