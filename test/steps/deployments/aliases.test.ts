import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { deploymentsFixture, lines, newDeployment } from './deployments-fixture.js';

/** Aliases (issue 42): the hostnames that point at deployments, against the sandbox. */
describe('deployments alias steps', () => {
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme' }));

  it('list_aliases and get_alias: the seeded production hostname and the deployment it serves', async () => {
    const listed = await fx.invoke('deployments.list_aliases', { project: 'shop' });
    expect(listed.variables.aliases).toEqual(['shop-acme.vercel.app']);
    const shown = await fx.invoke('deployments.get_alias', { alias: 'shop-acme.vercel.app' });
    expect(shown.output.alias).toMatchObject({
      uid: listed.output.aliases[0]?.uid,
      project_id: expect.any(String),
    });
    await expect(fx.invoke('deployments.get_alias', { alias: 'nowhere.vercel.app' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('assign_alias moves a hostname and says from where; again, it is no further change', async () => {
    const before = (await fx.invoke('deployments.get_alias', { alias: 'shop-acme.vercel.app' })).output.alias;
    const deployment_id = await newDeployment(fx, { project: 'shop' });
    const moved = await fx.invoke('deployments.assign_alias', {
      deployment_id,
      alias: 'SHOP-acme.vercel.app',
    });
    expect(moved.output).toEqual({
      uid: before.uid,
      alias: 'shop-acme.vercel.app',
      deployment_id,
      previous_deployment_id: before.deployment_id,
    });
    const again = await fx.invoke('deployments.assign_alias', {
      deployment_id,
      alias: 'shop-acme.vercel.app',
    });
    expect(again.output.previous_deployment_id).toBeNull();
  });

  it('delete_alias reads the alias, removes it, and a replay after a lost answer is already_done', async () => {
    const deployment_id = await newDeployment(fx, { project: 'shop' });
    await fx.invoke('deployments.assign_alias', { deployment_id, alias: 'beta.acme.com' });
    fx.clearWire();
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'DELETE' }));
    const deleted = await fx.invoke('deployments.delete_alias', { alias: 'beta.acme.com' });
    expect(deleted.output).toEqual({ deleted: true, alias: 'beta.acme.com', already_done: true });
    expect(lines(fx.wire()).filter((line) => line.startsWith('DELETE'))).toHaveLength(2);
    await expect(fx.invoke('deployments.get_alias', { alias: 'beta.acme.com' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('with project scoping: an account-wide list is refused unsent; another project’s alias is refused before any change', async () => {
    const scoped = { constraints: { projects: ['docs'] } };
    await fx.expectRefusedUnsent({ sent: false }, () => fx.invoke('deployments.list_aliases', {}, scoped));
    await expect(
      fx.invoke('deployments.delete_alias', { alias: 'shop-acme.vercel.app' }, scoped),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(fx.wire().some((request) => request.method === 'DELETE')).toBe(false);
    const listed = await fx.invoke('deployments.list_aliases', { project: 'shop' });
    expect(listed.output.aliases).toHaveLength(1);
  });
});
