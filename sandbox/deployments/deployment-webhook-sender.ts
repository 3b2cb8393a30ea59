import { createHmac } from 'node:crypto';
import type { Clock } from '../../src/model/clock.js';
import { definedOnly } from '../../src/values/defined-only.js';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import {
  type DeploymentEventType,
  type DeploymentRecord,
  type DeploymentWebhookRecord,
  newId,
  type OwnerScope,
  stateAt,
} from './deployments-state.js';
import type { DeploymentsWorld } from './deployments-world.js';

/** hex(HMAC-SHA1(secret, rawBody)): the provider signs no timestamp. */
export function deploymentsSignature(secret: string, body: string): string {
  return createHmac('sha1', secret).update(body).digest('hex');
}

/** The events a deployment in this state has earned, in order. */
function dueEvents(deployment: DeploymentRecord, now: number): DeploymentEventType[] {
  const { readyState } = stateAt(deployment, now);
  const due: DeploymentEventType[] = ['deployment.created'];
  if (readyState === 'READY') due.push('deployment.succeeded');
  if (readyState === 'ERROR') due.push('deployment.error');
  if (readyState === 'CANCELED') due.push('deployment.canceled');
  return due;
}

/** The envelope `{type, id, createdAt, region, payload}`; `target` names another target than the deployment's. */
function eventBody(
  type: DeploymentEventType,
  scope: OwnerScope,
  deployment: DeploymentRecord,
  now: number,
  target = deployment.target,
) {
  const inspectorUrl = `https://vercel.com/${scope.slug}/${deployment.name}/${deployment.id.slice(4)}`;
  return {
    type,
    id: newId('evt'),
    createdAt: now,
    region: 'iad1',
    payload: {
      team: { id: scope.ownerId.startsWith('team_') ? scope.ownerId : null },
      user: { id: deployment.creatorId },
      deployment: {
        id: deployment.id,
        meta: deployment.meta,
        url: deployment.url,
        name: deployment.name,
        inspectorUrl,
        ...definedOnly({
          errorMessage: type === 'deployment.error' ? 'Command "npm run build" exited with 1' : undefined,
        }),
      },
      links: { deployment: inspectorUrl, project: `https://vercel.com/${scope.slug}/${deployment.name}` },
      target,
      project: { id: deployment.projectId },
      plan: scope.ownerId.startsWith('team_') ? 'pro' : 'hobby',
      regions: ['iad1'],
    },
  };
}

function hears(
  webhook: DeploymentWebhookRecord,
  type: DeploymentEventType,
  deployment: DeploymentRecord,
): boolean {
  return (
    webhook.events.includes(type) &&
    (!webhook.projectIds || webhook.projectIds.includes(deployment.projectId))
  );
}

/**
 * Sends deployment events. A deployment's state follows the clock, so
 * nothing announces a build finishing: `tick` compares every deployment's
 * state now with the events already sent and sends what is new, then what
 * actions put in the world's outbox (a promotion). The emulator ticks after
 * each request, and the dispatcher before each pump.
 */
export class DeploymentWebhookSender {
  constructor(
    private readonly clock: Clock,
    private readonly dispatcher: WebhookDispatcher,
    private readonly world: () => DeploymentsWorld,
  ) {}

  tick(): void {
    const now = this.clock.now();
    const world = this.world();
    for (const deployment of world.allDeployments()) {
      // Created plus a final state: nothing more can happen to it.
      if (deployment.announced.length >= 2) continue;
      const fresh = dueEvents(deployment, now).filter((type) => !deployment.announced.includes(type));
      if (!fresh.length) continue;
      const scope = world.scope(deployment.ownerId);
      for (const type of fresh) {
        deployment.announced.push(type);
        this.announce(scope, eventBody(type, scope, deployment, now), deployment);
      }
    }
    for (const pending of world.outbox.splice(0)) {
      const deployment = world.findDeployment(pending.deploymentId);
      if (!deployment) continue;
      const scope = world.scope(deployment.ownerId);
      this.announce(scope, eventBody(pending.type, scope, deployment, now, pending.target), deployment);
    }
  }

  /** One event to every webhook of its owner that hears it. */
  private announce(
    scope: OwnerScope,
    event: ReturnType<typeof eventBody>,
    deployment: DeploymentRecord,
  ): void {
    for (const webhook of scope.webhooks.values()) {
      if (hears(webhook, event.type, deployment))
        this.send(webhook, event.id, event.type, JSON.stringify(event));
    }
  }

  private send(webhook: DeploymentWebhookRecord, eventId: string, type: string, body: string): void {
    this.dispatcher.enqueue({
      source: 'deployments',
      webhookId: webhook.id,
      url: webhook.url,
      eventId,
      eventType: type,
      body,
      sign: (signed, _at, wrongSecret) => ({
        'x-vercel-signature': deploymentsSignature(
          wrongSecret ? `${webhook.secret}-not-this-one` : webhook.secret,
          signed,
        ),
      }),
    });
  }
}
