import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines, newDeployment } from './deployments-fixture.js';

async function stateOf(fx: DeploymentsFixture, id: string): Promise<string> {
  const got = await fx.invoke('deployments.api_call', {
    method: 'GET',
    path: `/v13/deployments/${id}`,
  });
  return (got.output.body as { readyState: string }).readyState;
}

describe('deployments.cancel_deployment', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  it('follows the build on the clock: QUEUED, INITIALIZING, BUILDING, then READY', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    expect(await stateOf(fx, id)).toBe('QUEUED');
    fx.clock.advance(5_000);
    expect(await stateOf(fx, id)).toBe('INITIALIZING');
    fx.clock.advance(3_000);
    expect(await stateOf(fx, id)).toBe('BUILDING');
    fx.clock.advance(45_000);
    expect(await stateOf(fx, id)).toBe('READY');
  });

  it('cancels a building deployment with one PATCH and no body', async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    const id = await newDeployment(fx, { project: 'shop' });
    fx.clock.advance(10_000);
    fx.clearWire();
    const result = await fx.invoke('deployments.cancel_deployment', { deployment_id: id });
    const wire = fx.wire();
    expect(lines(wire)).toEqual([`PATCH /v12/deployments/${id}/cancel`]);
    expect(wire[0]?.query.get('teamId')).toBe('team_acme');
    expect(wire[0]?.body).toBeUndefined();
    expect(result.output.deployment).toMatchObject({ id, state: 'CANCELED' });
    expect(result.output.deployment.building_at).not.toBeNull();
    expect(result.output.already_done).toBe(false);
    expect(result.variables).toEqual({ deployment_id: id, state: 'CANCELED', already_done: false });
    fx.clock.advance(10 * 60_000);
    expect(await stateOf(fx, id)).toBe('CANCELED');
  });

  it('cancels a queued deployment', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    const result = await fx.invoke('deployments.cancel_deployment', { deployment_id: id });
    expect(result.output.deployment.state).toBe('CANCELED');
    // The provider's description requires buildingAt on every deployment; one cancelled
    // while queued never built, and the sandbox answers its creation time there.
    expect(result.output.deployment.building_at).toBe(result.output.deployment.created_at);
  });

  it('refuses to cancel twice with invalid_state naming CANCELED, after reading the state', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    await fx.invoke('deployments.cancel_deployment', { deployment_id: id });
    fx.clearWire();
    const failure = await fx
      .invoke('deployments.cancel_deployment', { deployment_id: id })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      name: 'ProviderError',
      code: 'invalid_state',
      status: 400,
      retryable: false,
      providerCode: 'bad_request',
      context: { deploymentId: id, state: 'CANCELED' },
    });
    expect((failure as Error).message).toContain('it is CANCELED');
    expect(lines(fx.wire())).toEqual([`PATCH /v12/deployments/${id}/cancel`, `GET /v13/deployments/${id}`]);
  });

  it('refuses to cancel a READY deployment, naming the state', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    fx.clock.advance(60_000);
    await expect(fx.invoke('deployments.cancel_deployment', { deployment_id: id })).rejects.toMatchObject({
      code: 'invalid_state',
      context: { state: 'READY' },
      message: expect.stringContaining('it is READY'),
    });
  });

  it('refuses to cancel a failed build, naming ERROR', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx, { branch: 'broken' });
    fx.clock.advance(60_000);
    const listed = await fx.invoke('deployments.list_deployments', {
      project: 'web',
      state: ['ERROR'],
    });
    expect(listed.output.deployments.map((deployment) => deployment.id)).toEqual([id]);
    expect(listed.output.deployments[0]?.error_message).toBeNull();
    const info = await fx.invoke('deployments.api_call', {
      method: 'GET',
      path: `/v13/deployments/${id}`,
    });
    expect((info.output.body as { errorMessage: string }).errorMessage).toMatch(/exited with 1/);
    await expect(fx.invoke('deployments.cancel_deployment', { deployment_id: id })).rejects.toMatchObject({
      code: 'invalid_state',
      context: { state: 'ERROR' },
    });
  });

  it('reports an unknown deployment as not_found', async () => {
    fx = await deploymentsFixture();
    await expect(
      fx.invoke('deployments.cancel_deployment', { deployment_id: 'dpl_doesnotexist' }),
    ).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(lines(fx.wire())).toEqual(['PATCH /v12/deployments/dpl_doesnotexist/cancel']);
  });

  it('replays a cancel whose answer was lost; the replay finds it CANCELED and succeeds with already_done', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    fx.clearWire();
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'PATCH' }));
    const result = await fx.invoke('deployments.cancel_deployment', {
      deployment_id: id,
    });
    expect(result.output.already_done).toBe(true);
    expect(result.output.deployment).toMatchObject({ id, state: 'CANCELED' });
    expect(result.variables).toEqual({ deployment_id: id, state: 'CANCELED', already_done: true });
    expect(lines(fx.wire())).toEqual([
      `PATCH /v12/deployments/${id}/cancel`,
      `PATCH /v12/deployments/${id}/cancel`,
      `GET /v13/deployments/${id}`,
    ]);
    expect(fx.sandbox.deployments.deployment(id)?.readyState).toBe('CANCELED');
  });

  it('succeeds with already_done when a 502 came back after the provider had cancelled', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    fx.sandbox.faults.add({
      target: 'deployments',
      method: 'PATCH',
      count: 1,
      action: { kind: 'status', status: 502, when: 'after' },
    });
    const result = await fx.invoke('deployments.cancel_deployment', {
      deployment_id: id,
    });
    expect(result.output).toMatchObject({ already_done: true, deployment: { id, state: 'CANCELED' } });
  });

  it('still refuses, with invalid_state, a replay that finds the deployment READY rather than CANCELED', async () => {
    fx = await deploymentsFixture();
    const id = await newDeployment(fx);
    fx.clock.advance(60_000);
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'PATCH' }));
    await expect(fx.invoke('deployments.cancel_deployment', { deployment_id: id })).rejects.toMatchObject({
      code: 'invalid_state',
      context: { state: 'READY' },
    });
  });

  describe('with project scoping', () => {
    /** Cancels, allowed to touch only the project "web"; the refusal, if any, is returned. */
    const cancelScopedToWeb = (id: string) =>
      fx
        .invoke(
          'deployments.cancel_deployment',
          { deployment_id: id },
          { constraints: { projects: ['web'] } },
        )
        .catch((error: unknown) => error);
    it('reads the deployment and refuses one of another project without sending the cancel', async () => {
      fx = await deploymentsFixture();
      const id = await newDeployment(fx, { project: 'api' });
      fx.clearWire();
      const refused = await cancelScopedToWeb(id);
      expect(refused).toMatchObject({ code: 'permission_denied', context: { allowedProjects: ['web'] } });
      expect((refused as Error).message).toContain('Nothing was changed');
      expect(lines(fx.wire()).some((line) => line.startsWith('PATCH'))).toBe(false);
      expect(fx.sandbox.deployments.deployment(id)?.readyState).toBe('QUEUED');
    });

    it('cancels inside the set, named by project name or by id', async () => {
      fx = await deploymentsFixture();
      const first = await newDeployment(fx);
      const projectId = fx.sandbox.deployments.deployment(first)?.projectId as string;
      fx.clearWire();
      await fx.invoke(
        'deployments.cancel_deployment',
        { deployment_id: first },
        { constraints: { projects: ['web'] } },
      );
      expect(lines(fx.wire())).toEqual([
        `GET /v13/deployments/${first}`,
        `GET /v9/projects/${projectId}`,
        `PATCH /v12/deployments/${first}/cancel`,
      ]);
      const second = await newDeployment(fx);
      fx.clearWire();
      await fx.invoke(
        'deployments.cancel_deployment',
        { deployment_id: second },
        { constraints: { projects: [projectId] } },
      );
      expect(lines(fx.wire())).toEqual([
        `GET /v13/deployments/${second}`,
        `PATCH /v12/deployments/${second}/cancel`,
      ]);
    });

    it('refuses a finished deployment from the state it read, without sending the cancel', async () => {
      fx = await deploymentsFixture();
      const id = await newDeployment(fx);
      fx.clock.advance(60_000);
      fx.clearWire();
      const refused = await cancelScopedToWeb(id);
      expect(refused).toMatchObject({ code: 'invalid_state', context: { state: 'READY' } });
      expect(lines(fx.wire()).some((line) => line.startsWith('PATCH'))).toBe(false);
    });
  });
});
