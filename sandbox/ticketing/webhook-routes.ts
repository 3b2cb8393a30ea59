import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { loopbackUrl } from '../webhooks/loopback-url.js';
import { newSigningSecret, ulidLike } from '../webhooks/webhook-ids.js';
import { CONDITIONAL_TICKET_EVENTS, EVENT_SUBSCRIPTIONS } from './ticket-events.js';
import type { TicketingWebhook } from './ticketing-hooks.js';
import { TEST_SIGNING_SECRET } from './ticketing-webhook-sender.js';
import { bodyMember, pageLink, type TicketingCaller, type TicketingRequest } from './ticketing-wire.js';

/** The webhooks API's error body: `{errors: [{code, title, detail}]}`. */
function webhookError(status: number, code: string, detail: string): Reply {
  return json(status, { errors: [{ code, title: code, detail }] });
}

const WEBHOOK_NOT_FOUND = webhookError(404, 'RecordNotFound', 'Webhook not found');

/** A webhook as the API shows it: never its secret (that has its own endpoint). */
export function publicWebhook(webhook: TicketingWebhook) {
  const { secret: _secret, ...shown } = webhook;
  return shown;
}

function createWebhook(request: TicketingRequest): Reply {
  const { account, userId } = request.caller;
  const fields = bodyMember(request, 'webhook');
  if (!fields) return webhookError(400, 'InvalidValue', 'webhook is required');
  if (typeof fields.name !== 'string' || fields.name.trim() === '')
    return webhookError(400, 'InvalidValue', 'name is required');
  const endpoint = loopbackUrl(fields.endpoint);
  if (typeof endpoint === 'string') return webhookError(400, 'InvalidEndpoint', `endpoint ${endpoint}`);
  if ((fields.http_method ?? 'POST') !== 'POST' || (fields.request_format ?? 'json') !== 'json') {
    return webhookError(400, 'InvalidValue', 'event webhooks use http_method POST and request_format json');
  }
  const subscriptions = Array.isArray(fields.subscriptions) ? fields.subscriptions.map(String) : [];
  const unknown = subscriptions.find((name) => !EVENT_SUBSCRIPTIONS.includes(name));
  if (unknown) return webhookError(400, 'InvalidValue', `unknown subscription "${unknown}"`);
  if (subscriptions.includes(CONDITIONAL_TICKET_EVENTS) && subscriptions.length > 1) {
    return webhookError(
      400,
      'InvalidValue',
      `${CONDITIONAL_TICKET_EVENTS} cannot be combined with event types`,
    );
  }
  const at = account.timestamp();
  const webhook: TicketingWebhook = {
    id: ulidLike(Date.parse(at)),
    name: fields.name,
    description: typeof fields.description === 'string' ? fields.description : undefined,
    endpoint: endpoint.href,
    http_method: 'POST',
    request_format: 'json',
    status: fields.status === 'inactive' ? 'inactive' : 'active',
    subscriptions,
    created_at: at,
    created_by: String(userId),
    updated_at: at,
    secret: newSigningSecret(),
  };
  account.webhooks.set(webhook.id, webhook);
  return json(201, { webhook: publicWebhook(webhook) });
}

function webhookOf(request: TicketingRequest): TicketingWebhook | undefined {
  return request.caller.account.webhooks.get(request.params.id ?? '');
}

/**
 * `PATCH /api/v2/webhooks/{id}` (the description's Patch Webhook): changes
 * the name, description, status or endpoint given, keeps the rest; 204.
 */
function patchWebhook(request: TicketingRequest): Reply {
  const webhook = webhookOf(request);
  if (!webhook) return WEBHOOK_NOT_FOUND;
  const fields = bodyMember(request, 'webhook');
  if (!fields) return webhookError(400, 'InvalidValue', 'webhook is required');
  if (fields.status !== undefined && fields.status !== 'active' && fields.status !== 'inactive') {
    return webhookError(400, 'InvalidValue', 'status must be active or inactive');
  }
  if (fields.endpoint !== undefined) {
    const endpoint = loopbackUrl(fields.endpoint);
    if (typeof endpoint === 'string') return webhookError(400, 'InvalidEndpoint', `endpoint ${endpoint}`);
    webhook.endpoint = endpoint.href;
  }
  if (typeof fields.name === 'string' && fields.name.trim()) webhook.name = fields.name;
  if (typeof fields.description === 'string') webhook.description = fields.description;
  if (fields.status !== undefined) webhook.status = fields.status as TicketingWebhook['status'];
  webhook.updated_at = request.caller.account.timestamp();
  return { status: 204 };
}

function deleteWebhook(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const webhook = webhookOf(request);
  if (!webhook) return WEBHOOK_NOT_FOUND;
  // The provider refuses while a trigger still notifies the webhook: remove the trigger first.
  const user = [...account.triggers.values()].find((trigger) =>
    trigger.actions.some((action) => Array.isArray(action.value) && action.value[0] === webhook.id),
  );
  if (user) {
    return webhookError(
      400,
      'WebhookInUse',
      `Webhook is used by trigger ${user.id}; delete the trigger first`,
    );
  }
  account.webhooks.delete(webhook.id);
  return { status: 204 };
}

/**
 * `POST /api/v2/webhooks/test[?webhook_id=]`: one delivery now (the body
 * from `request.payload`), answered with the receiver's status. An existing webhook signs with its own
 * secret; an unsaved one with the provider's static test secret.
 */
async function testWebhook(request: TicketingRequest): Promise<Reply> {
  const { account, webhooks } = request.caller;
  const savedId = request.query.get('webhook_id');
  const saved = savedId ? account.webhooks.get(savedId) : undefined;
  if (savedId && !saved) return WEBHOOK_NOT_FOUND;
  const fields = bodyMember(request, 'webhook') ?? {};
  const endpoint = loopbackUrl(fields.endpoint ?? saved?.endpoint);
  if (typeof endpoint === 'string') return webhookError(400, 'InvalidEndpoint', `endpoint ${endpoint}`);
  const sample = request.body as Record<string, unknown> | undefined;
  // The provider's guide sends the body as `request.payload`; `request_body` is the sandbox's older spelling.
  const requested = bodyMember(request, 'request');
  const body =
    typeof requested?.payload === 'string'
      ? requested.payload
      : typeof sample?.request_body === 'string'
        ? sample.request_body
        : JSON.stringify({ test: true });
  const delivery = webhooks.send(
    account,
    { id: saved?.id ?? 'test', endpoint: endpoint.href, secret: saved?.secret ?? TEST_SIGNING_SECRET },
    { id: `test-${ulidLike(Date.now())}`, type: 'test', body },
  );
  await webhooks.settle();
  const status = delivery.attempts[0]?.status;
  return json(200, {
    test: {
      status: status !== undefined && status >= 200 && status < 300 ? 'success' : 'failed',
      response_code: status ?? 0,
      response_body: '',
      message: delivery.attempts[0]?.error ?? (status === undefined ? 'not sent yet' : `HTTP ${status}`),
    },
  });
}

const MAX_PAGE = 100;

/**
 * `GET /api/v2/webhooks` ("List Webhooks"): `filter[name_contains]`, and
 * cursor pages (`page[size]` up to 100, `page[after]` the last id seen) in
 * creation order. The description types cursors and links as strings, so
 * an absent one is left out rather than null.
 */
function listWebhooks(request: TicketingRequest): Reply {
  const size = Number(request.query.get('page[size]') ?? MAX_PAGE);
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) {
    return webhookError(400, 'InvalidPaginationParameter', `page[size] must be between 1 and ${MAX_PAGE}`);
  }
  const contains = request.query.get('filter[name_contains]')?.toLowerCase();
  const all = [...request.caller.account.webhooks.values()].filter(
    (webhook) => !contains || webhook.name.toLowerCase().includes(contains),
  );
  const after = request.query.get('page[after]');
  const start = after ? all.findIndex((webhook) => webhook.id === after) + 1 : 0;
  if (after && start === 0)
    return webhookError(400, 'InvalidPaginationParameter', 'page[after] is not a cursor');
  const page = all.slice(start, start + size);
  const hasMore = start + page.length < all.length;
  const last = page.at(-1)?.id;
  return json(200, {
    webhooks: page.map(publicWebhook),
    meta: {
      has_more: hasMore,
      ...(last ? { after_cursor: last } : {}),
      ...(page[0] ? { before_cursor: page[0].id } : {}),
    },
    links: hasMore && last ? { next: pageLink(request, { 'page[after]': last }) } : {},
  });
}

/** The webhooks API of the ticketing provider (event subscriptions, signing secret, test). */
export function webhookRoutes(router: Router<TicketingCaller>): void {
  // `.json` first: otherwise `:id` would swallow `<id>.json`.
  for (const suffix of ['.json', '']) {
    router
      .on('POST', `/api/v2/webhooks${suffix}`, createWebhook)
      .on('GET', `/api/v2/webhooks${suffix}`, listWebhooks)
      .on('POST', `/api/v2/webhooks/test${suffix}`, testWebhook)
      .on('GET', `/api/v2/webhooks/:id${suffix}`, (request) => {
        const webhook = webhookOf(request);
        return webhook ? json(200, { webhook: publicWebhook(webhook) }) : WEBHOOK_NOT_FOUND;
      })
      .on('PATCH', `/api/v2/webhooks/:id${suffix}`, patchWebhook)
      .on('DELETE', `/api/v2/webhooks/:id${suffix}`, deleteWebhook)
      .on('GET', `/api/v2/webhooks/:id/signing_secret${suffix}`, (request) => {
        const webhook = webhookOf(request);
        if (!webhook) return WEBHOOK_NOT_FOUND;
        return json(200, { signing_secret: { algorithm: 'SHA256', secret: webhook.secret } });
      });
  }
}
