import { definedOnly } from '../../src/values/defined-only.js';
import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import { loopbackUrl } from '../webhooks/loopback-url.js';
import { newSigningSecret } from '../webhooks/webhook-ids.js';
import {
  DEPLOYMENT_EVENT_TYPES,
  type DeploymentEventType,
  type DeploymentWebhookRecord,
  newId,
} from './deployments-state.js';
import { badRequest, type Caller, type DeploymentsRequest, notFound } from './deployments-wire.js';

/** A webhook as listed: never its secret, which only the create answer carries. */
function shown(webhook: DeploymentWebhookRecord) {
  const { secret: _secret, ...rest } = webhook;
  return rest;
}

function createWebhook(request: DeploymentsRequest): Reply {
  const { scope, now } = request.caller;
  const body = objectBody(request);
  if (!body) return badRequest('the body must be a JSON object.');
  const url = loopbackUrl(body.url);
  if (typeof url === 'string') return badRequest(`\`url\` ${url}.`);
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0) return badRequest('`events` must be a non-empty array.');
  const unknown = events.find((event) => !(DEPLOYMENT_EVENT_TYPES as readonly unknown[]).includes(event));
  if (unknown !== undefined) {
    return badRequest(
      `\`events\` has "${String(unknown)}"; the sandbox sends ${DEPLOYMENT_EVENT_TYPES.join(', ')}.`,
    );
  }
  let projectIds: string[] | undefined;
  if (body.projectIds !== undefined) {
    if (!Array.isArray(body.projectIds) || body.projectIds.length === 0) {
      return badRequest('`projectIds` must be a non-empty array of project ids.');
    }
    projectIds = [];
    for (const ref of body.projectIds) {
      const project = scope.project(String(ref));
      if (!project) return notFound(`Project "${String(ref)}"`);
      projectIds.push(project.id);
    }
  }
  const webhook: DeploymentWebhookRecord = {
    id: newId('account_hook'),
    url: url.href,
    events: [...new Set(events as DeploymentEventType[])],
    ...definedOnly({ projectIds }),
    ownerId: scope.ownerId,
    createdAt: now,
    updatedAt: now,
    secret: newSigningSecret(),
  };
  scope.webhooks.set(webhook.id, webhook);
  return json(200, webhook);
}

/** Account webhooks: create (the only answer with the secret), list, get, delete. */
export function deploymentWebhookRoutes(router: Router<Caller>): void {
  router
    .on('POST', '/v1/webhooks', createWebhook)
    .on('GET', '/v1/webhooks', (request) => {
      const projectId = request.query.get('projectId');
      const webhooks = [...request.caller.scope.webhooks.values()].filter(
        (webhook) => !projectId || !webhook.projectIds || webhook.projectIds.includes(projectId),
      );
      return json(200, webhooks.map(shown));
    })
    .on('GET', '/v1/webhooks/:id', (request) => {
      const webhook = request.caller.scope.webhooks.get(request.params.id ?? '');
      return webhook ? json(200, shown(webhook)) : notFound('Webhook');
    })
    .on('DELETE', '/v1/webhooks/:id', (request) => {
      const { scope } = request.caller;
      if (!scope.webhooks.delete(request.params.id ?? '')) return notFound('Webhook');
      return { status: 204 };
    });
}
