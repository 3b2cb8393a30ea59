import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import { CONDITIONAL_TICKET_EVENTS } from './ticket-events.js';
import { CONDITION_FIELDS, type TicketingTrigger, type TriggerCondition } from './ticketing-hooks.js';
import {
  bodyMember,
  cursorPage,
  invalid,
  NOT_FOUND,
  type TicketingCaller,
  type TicketingRequest,
} from './ticketing-wire.js';

function conditionsOf(value: unknown): TriggerCondition[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'must be an array';
  for (const condition of value as TriggerCondition[]) {
    const operators = CONDITION_FIELDS[String(condition?.field)];
    if (!operators) return `field "${String(condition?.field)}" is not supported by the sandbox`;
    if (!operators.includes(String(condition.operator))) {
      return `operator "${String(condition.operator)}" is not valid for ${condition.field}`;
    }
  }
  return (value as TriggerCondition[]).map((condition) => ({ ...condition }));
}

/**
 * A business rule. Its `notification_webhook` actions must name a webhook
 * of this account that subscribes to `conditional_ticket_events`.
 */
function createTrigger(request: TicketingRequest): Reply {
  const { account } = request.caller;
  const fields = bodyMember(request, 'trigger');
  if (!fields) return invalid({ trigger: 'is required' });
  if (typeof fields.title !== 'string' || fields.title.trim() === '')
    return invalid({ title: 'Title: cannot be blank' });
  const raw = (fields.conditions ?? {}) as Record<string, unknown>;
  const all = conditionsOf(raw.all);
  const any = conditionsOf(raw.any);
  if (typeof all === 'string') return invalid({ conditions: `all: ${all}` });
  if (typeof any === 'string') return invalid({ conditions: `any: ${any}` });
  if (!all.length && !any.length) return invalid({ conditions: 'Conditions: at least one is required' });
  const actions = Array.isArray(fields.actions) ? (fields.actions as TicketingTrigger['actions']) : [];
  if (!actions.length) return invalid({ actions: 'Actions: at least one is required' });
  for (const action of actions) {
    if (action.field !== 'notification_webhook') continue;
    const [webhookId] = Array.isArray(action.value) ? action.value : [];
    const webhook = account.webhooks.get(String(webhookId));
    if (!webhook) return invalid({ actions: `Webhook ${String(webhookId)} does not exist` });
    if (!webhook.subscriptions.includes(CONDITIONAL_TICKET_EVENTS)) {
      return invalid({ actions: `Webhook ${webhook.id} must subscribe to ${CONDITIONAL_TICKET_EVENTS}` });
    }
  }
  const at = account.timestamp();
  const trigger: TicketingTrigger = {
    id: account.newId('trigger'),
    title: fields.title,
    active: fields.active !== false,
    position: account.triggers.size + 1,
    conditions: { all, any },
    actions: actions.map((action) => ({ field: action.field, value: action.value })),
    created_at: at,
    updated_at: at,
  };
  account.triggers.set(trigger.id, trigger);
  return json(201, { trigger });
}

function triggerOf(request: TicketingRequest): TicketingTrigger | undefined {
  return request.caller.account.triggers.get(Number(request.params.id));
}

/** Business rules (triggers): list, create, show, delete. */
export function triggerRoutes(router: Router<TicketingCaller>): void {
  // `.json` first: otherwise `:id` would swallow `<id>.json`.
  for (const suffix of ['.json', '']) {
    router
      // Cursor (`page[size]`, `page[after]`) or offset paging, as the description's Pagination section says.
      .on('GET', `/api/v2/triggers${suffix}`, (request) =>
        cursorPage(request, [...request.caller.account.triggers.values()], 'triggers', (rule) => rule, 100),
      )
      .on('POST', `/api/v2/triggers${suffix}`, createTrigger)
      .on('GET', `/api/v2/triggers/:id${suffix}`, (request) => {
        const trigger = triggerOf(request);
        return trigger ? json(200, { trigger }) : json(404, NOT_FOUND);
      })
      .on('DELETE', `/api/v2/triggers/:id${suffix}`, (request) => {
        const trigger = triggerOf(request);
        if (!trigger) return json(404, NOT_FOUND);
        request.caller.account.triggers.delete(trigger.id);
        return { status: 204 };
      });
  }
}
