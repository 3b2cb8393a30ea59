import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeploymentsFixture, deploymentsFixture } from '../steps/deployments/deployments-fixture.js';
import { type SandboxIntake, sandboxIntake } from './support/sandbox-intake.js';

/**
 * The promotion trigger end to end over real sockets: the sandbox is the
 * provider (webhook API, signed `deployment.promoted` deliveries), the
 * subscription is provisioned there, the intake receives, and the steps
 * make the changes (promote, roll back).
 */
let fx: DeploymentsFixture;
let intake: SandboxIntake;

beforeEach(async () => {
  fx = await deploymentsFixture({ teamId: 'team_acme' });
  intake = await sandboxIntake(fx);
});

afterEach(async () => {
  await fx.close();
  await intake.close();
});

/** A READY deployment of `project`, built now. */
async function readyDeployment(project: string, environment: 'production' | 'preview'): Promise<string> {
  const created = await fx.invoke('deployments.create_deployment', { project, branch: 'main', environment });
  fx.clock.advance(60_000);
  return created.output.deployment.id;
}

const promotedDeliveries = () =>
  fx.sandbox.webhooks.deliveries.filter((delivery) => delivery.eventType === 'deployment.promoted');

describe('deployment promoted, against the sandbox', () => {
  it('a promotion starts one event; the same promotion again, a rollback, and another project start none', async () => {
    const shop = (await fx.invoke('deployments.get_project', { project: 'shop' })).output.project.id;
    const subscription = await intake.manager.create({
      trigger: 'deployments.deployment_promoted',
      connection: fx.connection.id,
      target: intake.target,
      constraints: { projects: [shop] },
    });
    const [webhook] = fx.sandbox.deployments.world.scope('team_acme').webhooks.values();
    expect(webhook).toMatchObject({ events: ['deployment.promoted'], projectIds: [shop] });

    const production = (
      await fx.invoke('deployments.list_deployments', { project: 'shop', environment: 'production' })
    ).output.deployments[0]!.id;
    const preview = await readyDeployment('shop', 'preview');
    await fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: preview });
    await fx.sandbox.webhooks.settle();
    expect(intake.refused).toEqual([]);
    expect(intake.started).toHaveLength(1);
    expect(intake.started[0]).toMatchObject({
      subscription: subscription.id,
      trigger: 'deployments.deployment_promoted',
      variables: {
        deployment_id: preview,
        project: shop,
        name: 'shop',
        target: 'production',
        state: 'deployment.promoted',
      },
    });

    // Production already is that deployment: nothing moves, nothing is announced.
    await fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: preview });
    // The provider sends no promotion event for a rollback.
    await fx.invoke('deployments.rollback_project', { project: 'shop', deployment_id: production });
    // Another project's promotion is not for this webhook (its projectIds).
    const docs = await readyDeployment('docs', 'production');
    await fx.invoke('deployments.promote_deployment', { project: 'docs', deployment_id: docs });
    await fx.sandbox.webhooks.settle();
    expect(promotedDeliveries()).toHaveLength(1);
    expect(intake.started).toHaveLength(1);

    await intake.manager.remove(subscription.id);
    expect(fx.sandbox.deployments.world.scope('team_acme').webhooks.size).toBe(0);
  });

  it('a promotion to a target the setup leaves out is received and skipped, not started', async () => {
    await intake.manager.create({
      trigger: 'deployments.deployment_promoted',
      connection: fx.connection.id,
      target: intake.target,
      setup: { targets: ['staging'] },
    });
    const preview = await readyDeployment('shop', 'preview');
    await fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: preview });
    await fx.sandbox.webhooks.settle();
    expect(
      promotedDeliveries().map((delivery) => delivery.attempts.map((attempt) => attempt.status)),
    ).toEqual([[200]]);
    expect(intake.started).toEqual([]);
  });
});
