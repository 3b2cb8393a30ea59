import { z } from 'zod';
import { definedOnly } from '../../../../src/defined-only.js';
import { NotFoundError } from '../../../../src/errors.js';
import type { ProvisionContext, ProvisionResult, RemoveContext } from '../../../../src/trigger.js';
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
