import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, fullDeployment, lines } from './deployments-fixture.js';

describe('deployments.create_deployment', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  it('reads the project git link, then POSTs /v13/deployments with teamId, target and settings', async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    const result = await fx.invoke('deployments.create_deployment', fullDeployment('shop'));
    const wire = fx.wire();
    expect(lines(wire)).toEqual(['GET /v9/projects/shop', 'POST /v13/deployments']);
    for (const request of wire) {
      expect(request.query.get('teamId')).toBe('team_acme');
      expect(request.headers.authorization).toBe(`Bearer ${fx.token}`);
    }
    expect(wire[1]?.headers['content-type']).toBe('application/json');
    expect(wire[1]?.body).toEqual({
      name: 'shop',
      project: 'shop',
      target: 'production',
      gitSource: { type: 'github', repoId: 2001, ref: 'feature/checkout', sha: 'a1b2c3d4e5f6' },
      projectSettings: { buildCommand: 'npm run build:prod', nodeVersion: '20.x', framework: 'nextjs' },
      meta: { ticket: 'OPS-7' },
    });
    expect(result.output.deployment).toMatchObject({
      state: 'QUEUED',
      environment: 'production',
      target: 'production',
      branch: 'feature/checkout',
    });
    expect(result.variables.deployment_id).toBe(result.output.deployment.id);
    expect(result.variables.state).toBe('QUEUED');
  });

  it('maps preview and development to no target (a preview deployment) and production to "production"', async () => {
    fx = await deploymentsFixture();
    const sent: Record<string, unknown>[] = [];
    for (const environment of ['preview', 'development', 'production'] as const) {
      fx.clearWire();
      const result = await fx.invoke('deployments.create_deployment', {
        project: 'web',
        branch: 'main',
        environment,
      });
      sent.push(fx.wire().find((request) => request.method === 'POST')?.body as Record<string, unknown>);
      expect(result.output.deployment.environment).toBe(
        environment === 'production' ? 'production' : 'preview',
      );
    }
    expect(sent.map((body) => body.target)).toEqual([undefined, undefined, 'production']);
    expect(sent.map((body) => 'target' in body)).toEqual([false, false, true]);
  });

  it("defaults the branch to the project's production branch and addresses GitLab repositories by project id", async () => {
    fx = await deploymentsFixture({ teamId: 'team_acme' });
    const result = await fx.invoke('deployments.create_deployment', { project: 'docs' });
    const post = fx.wire().find((request) => request.method === 'POST');
    // The project's GitLab link names its project id as a string (the provider's description); it is sent as given.
    expect(post?.body).toMatchObject({ gitSource: { type: 'gitlab', projectId: '3001', ref: 'main' } });
    expect(result.output.deployment.branch).toBe('main');
  });

  it('deploys an explicit GitHub repository without reading the project', async () => {
    fx = await deploymentsFixture();
    await fx.invoke('deployments.create_deployment', {
      project: 'web',
      repository: 'ada/web-fork',
      branch: 'try',
    });
    const wire = fx.wire();
    expect(lines(wire)).toEqual(['POST /v13/deployments']);
    expect(wire[0]?.body).toMatchObject({
      gitSource: { type: 'github', org: 'ada', repo: 'web-fork', ref: 'try' },
    });
  });

  it('refuses bad input before sending anything', async () => {
    fx = await deploymentsFixture();
    await fx.expectRefusedUnsent(
      { code: 'input_invalid' },
      () => fx.invoke('deployments.create_deployment', { project: 'web', repository: 'ada/web' }),
      () => fx.invokeUnchecked('deployments.create_deployment', { project: 'web', environment: 'staging' }),
      () => fx.invoke('deployments.create_deployment', { project: '../web', branch: 'main' }),
    );
  });

  it('reports an unknown project as not_found and never POSTs', async () => {
    fx = await deploymentsFixture();
    await expect(
      fx.invoke('deployments.create_deployment', { project: 'nope', branch: 'main' }),
    ).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(lines(fx.wire())).toEqual(['GET /v9/projects/nope']);
  });

  it('is never replayed after the connection drops mid-request: one deployment exists and the outcome is unknown', async () => {
    fx = await deploymentsFixture();
    const before = fx.sandbox.deployments.world.allDeployments().length;
    fx.sandbox.faults.add(
      resetOnce({ target: 'deployments', method: 'POST', pathIncludes: '/v13/deployments' }),
    );
    const failure = await fx
      .invoke('deployments.create_deployment', { project: 'web', branch: 'main' })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'network_error',
      outcome: 'unknown',
      sent: 'unknown',
    });
    expect((failure as Error).message).toMatch(/outcome unknown/i);
    expect((failure as Error).message).toContain('List Deployments');
    expect(lines(fx.wire()).filter((line) => line.startsWith('POST'))).toEqual(['POST /v13/deployments']);
    expect(fx.sandbox.deployments.world.allDeployments().length).toBe(before + 1);
  });

  it('refuses a project outside the allowed set with nothing sent', async () => {
    fx = await deploymentsFixture();
    const refused = await fx
      .invoke(
        'deployments.create_deployment',
        { project: 'api', branch: 'main' },
        { constraints: { projects: ['web'] } },
      )
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'permission_denied',
      context: { allowedProjects: ['web'], project: 'api' },
    });
    expect((refused as Error).message).toContain('Nothing was sent');
    expect(fx.wire()).toEqual([]);

    const allowed = await fx.invoke(
      'deployments.create_deployment',
      { project: 'web', branch: 'main' },
      { constraints: { projects: ['web'] } },
    );
    expect(allowed.output.deployment.state).toBe('QUEUED');
  });
});
