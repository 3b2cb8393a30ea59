import { createHmac } from 'node:crypto';
import type { Subscription } from '../../src/model/subscription.js';
import type { TriggerEvent } from '../../src/model/trigger-event.js';

/**
 * Deliveries as the providers send them, signed here with node:crypto by the
 * rules in provider-facts.md, independently of the schemes under test.
 */
export const TICKETING_SECRET = 'dGhpcyBpcyBhIHRpY2tldGluZyBzZWNyZXQ';
export const DEPLOYMENTS_SECRET = 'vercel-webhook-secret-0123456789';

/** An event the intake has started and hands over: a ticket created, with nothing mapped. */
export const startedEvent: TriggerEvent = {
  tenant: 'default',
  subscription: 'sub_0123456789abcdef',
  trigger: 'ticketing.ticket_created',
  event_id: 'e1',
  occurred_at: '2026-01-01T00:00:00.000Z',
  variables: {},
  payload: {},
};

export function ticketStatusEvent(overrides: { id?: string; current?: string; time?: string } = {}) {
  return {
    type: 'zen:event-type:ticket.status_changed',
    account_id: 12514403,
    id: overrides.id ?? 'cbe4028c-7239-495d-b020-f22348516046',
    time: overrides.time ?? '2026-01-01T00:00:00.000Z',
    zendesk_event_version: '2022-11-06',
    subject: 'zen:ticket:5158',
    detail: {
      id: '5158',
      subject: 'Printer on fire',
      description: 'The printer in room 3 is on fire.',
      status: (overrides.current ?? 'SOLVED').toUpperCase(),
      priority: 'HIGH',
      requester_id: '8447388090494',
      assignee_id: '8447388090111',
      tags: ['hardware'],
    },
    event: { previous: 'OPEN', current: overrides.current ?? 'SOLVED' },
  };
}

/** A ticket assignment as the provider sends it (`ticket.agent_assignment_changed`): one body for every trigger major. */
export function ticketAssignedEvent(overrides: { id?: string; time?: string } = {}) {
  return {
    ...ticketStatusEvent(overrides),
    type: 'zen:event-type:ticket.agent_assignment_changed',
    event: { previous: '8447388090111', current: 8447388090222 },
  };
}

export function deploymentEvent(
  type = 'deployment.created',
  overrides: { id?: string; project?: string; target?: string | null; createdAt?: number } = {},
) {
  return {
    type,
    id: overrides.id ?? 'evt_Qx1',
    // The replay window refuses an event more than a day old: a listener on the real clock needs `Date.now()`.
    createdAt: overrides.createdAt ?? Date.UTC(2026, 0, 1),
    region: 'syd1',
    payload: {
      team: { id: 'team_1' },
      user: { id: 'user_1' },
      deployment: { id: 'dpl_1', url: 'web-abc.vercel.app', name: 'web', meta: {} },
      project: { id: overrides.project ?? 'prj_web' },
      target: overrides.target === undefined ? 'production' : overrides.target,
      links: { deployment: 'https://vercel.com/x/dpl_1', project: 'https://vercel.com/x/web' },
    },
  };
}

/** base64 HMAC-SHA256(secret, timestamp + body): the ticketing rule. */
export function signTicketing(body: string | Buffer, timestamp: string, secret = TICKETING_SECRET) {
  const signature = createHmac('sha256', secret).update(timestamp).update(body).digest('base64');
  return {
    'x-zendesk-webhook-signature': signature,
    'x-zendesk-webhook-signature-timestamp': timestamp,
  };
}

/** hex HMAC-SHA1(secret, body): the deployments rule. */
export function signDeployments(body: string | Buffer, secret = DEPLOYMENTS_SECRET) {
  return { 'x-vercel-signature': createHmac('sha1', secret).update(body).digest('hex') };
}

export function subscriptionFor(
  trigger: string,
  overrides: Partial<Subscription> & { id: string },
): Subscription {
  return {
    trigger,
    connection: trigger.startsWith('ticketing') ? 'desk' : 'deploys',
    target: 'https://agents.example.com',
    provider: {},
    secret: trigger.startsWith('ticketing') ? TICKETING_SECRET : DEPLOYMENTS_SECRET,
    setup: {},
    mapping: {},
    constraints: {},
    active: true,
    manual: false,
    state: 'ready',
    createdAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

/** The CLI words that subscribe to status changes of the `desk` connection, delivered to a loopback port. */
export function statusSubscriptionArgs(port: number): string[] {
  const target = `http://127.0.0.1:${port}`;
  return [
    'triggers',
    'create',
    'ticketing.ticket_status_changed',
    '--connection',
    'desk',
    '--target',
    target,
  ];
}
