import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { deploymentsFixture, lines } from './deployments-fixture.js';

/** Redeploy, promote and roll back (issue 42), against the sandbox with a clock the test moves. */
describe('deployments redeploy, promote and roll back', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme', sandbox: { clock } }));
  const servedBy = async () =>
    (await fx.invoke('deployments.get_alias', { alias: 'shop-acme.vercel.app' })).output.alias.deployment_id;

  it('redeploy builds the same source again; promote moves production to it once READY; rollback moves it back', async () => {
    const production = await servedBy();
    fx.clearWire();
    const rebuilt = await fx.invoke('deployments.redeploy', {
      deployment_id: production!,
      target: 'preview',
    });
    expect(lines(fx.wire())).toEqual([`GET /v13/deployments/${production}`, 'POST /v13/deployments']);
    expect(rebuilt.output.deployment).toMatchObject({ name: 'shop', state: 'QUEUED' });
    const id = rebuilt.output.deployment.id;
    await expect(
      fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: id }),
    ).rejects.toMatchObject({
      status: 400,
    });
    clock.advance(60_000);
    await fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: id });
    expect(await servedBy()).toBe(id);
    // A preview is not an earlier production deployment: roll back refuses it, promote would not.
    await expect(
      fx.invoke('deployments.rollback_project', { project: 'shop', deployment_id: id }),
    ).rejects.toMatchObject({
      status: 400,
    });
    const back = await fx.invoke('deployments.rollback_project', {
      project: 'shop',
      deployment_id: production!,
    });
    expect(back.output).toEqual({ project: 'shop', deployment_id: production });
    expect(await servedBy()).toBe(production);
  });

  it('a project outside the constraints is refused unsent', async () => {
    const scoped = { constraints: { projects: ['docs'] } };
    await fx.expectRefusedUnsent(
      { sent: false },
      () => fx.invoke('deployments.promote_deployment', { project: 'shop', deployment_id: 'dpl_x' }, scoped),
      () => fx.invoke('deployments.rollback_project', { project: 'shop', deployment_id: 'dpl_x' }, scoped),
    );
  });
});
