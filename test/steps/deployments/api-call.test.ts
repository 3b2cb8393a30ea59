import { describe, expect, it } from 'vitest';
import type { CatalogInput } from '../../support/catalog-invoke.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines, newDeployment } from './deployments-fixture.js';

interface Call {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: provider bodies are read field by field in assertions.
  body: any;
}

describe('deployments.api_call', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  const call = async (input: CatalogInput<'deployments.api_call'>, extra = {}): Promise<Call> =>
    (await fx.invoke('deployments.api_call', input, extra)).output;

  it('reaches every deployment, project, domain, env and team path of the spec', async () => {
    fx = await deploymentsFixture();
    const project = await call({
      method: 'POST',
      path: '/v10/projects',
      body: { name: 'blog', framework: 'astro', gitRepository: { type: 'github', repo: 'ada/blog' } },
    });
    expect(project).toMatchObject({
      status: 200,
      body: { name: 'blog', framework: 'astro', link: { repo: 'blog' } },
    });
    expect(
      (await call({ method: 'GET', path: '/v9/projects' })).body.projects.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(expect.arrayContaining(['web', 'api', 'blog']));
    expect((await call({ method: 'GET', path: '/v9/projects/blog' })).body.id).toBe(project.body.id);
    expect(
      (await call({ method: 'PATCH', path: '/v9/projects/blog', body: { buildCommand: 'astro build' } })).body
        .buildCommand,
    ).toBe('astro build');

    const domain = await call({
      method: 'POST',
      path: '/v10/projects/blog/domains',
      body: { name: 'blog.ada.dev' },
    });
    expect(domain.body).toMatchObject({ name: 'blog.ada.dev', apexName: 'ada.dev', verified: true });
    expect((await call({ method: 'GET', path: '/v5/domains' })).body.domains[0].name).toBe('ada.dev');
    expect((await call({ method: 'GET', path: '/v5/domains/ada.dev' })).body.domain.verified).toBe(true);

    const env = await call({
      method: 'POST',
      path: '/v10/projects/blog/env',
      body: {
        key: 'API_URL',
        value: 'https://api.example',
        type: 'plain',
        target: ['production', 'preview'],
      },
    });
    expect(env.status).toBe(201);
    const envId = env.body.created.id as string;
    const duplicate = await fx
      .invoke('deployments.api_call', {
        method: 'POST',
        path: '/v10/projects/blog/env',
        body: { key: 'API_URL', value: 'x', type: 'plain', target: ['preview'] },
      })
      .catch((error: unknown) => error);
    expect(duplicate).toMatchObject({
      code: 'provider_rejected',
      status: 400,
      providerCode: 'ENV_ALREADY_EXISTS',
    });
    expect((await call({ method: 'GET', path: '/v9/projects/blog/env' })).body.envs).toHaveLength(1);
    expect(
      (
        await call({
          method: 'PATCH',
          path: `/v9/projects/blog/env/${envId}`,
          body: { value: 'https://api2.example' },
        })
      ).body.value,
    ).toBe('https://api2.example');
    expect((await call({ method: 'DELETE', path: `/v9/projects/blog/env/${envId}` })).body.key).toBe(
      'API_URL',
    );
    expect((await call({ method: 'DELETE', path: '/v9/projects/blog/domains/blog.ada.dev' })).status).toBe(
      200,
    );

    const created = await call({
      method: 'POST',
      path: '/v13/deployments',
      body: {
        name: 'blog',
        project: 'blog',
        gitSource: { type: 'github', org: 'ada', repo: 'blog', ref: 'main' },
      },
    });
    const id = created.body.id as string;
    expect(created.body.readyState).toBe('QUEUED');
    expect((await call({ method: 'GET', path: `/v13/deployments/${id}` })).body.id).toBe(id);
    expect(
      (await call({ method: 'GET', path: '/v6/deployments?projectId=blog' })).body.deployments[0].uid,
    ).toBe(id);
    expect((await call({ method: 'PATCH', path: `/v12/deployments/${id}/cancel` })).body.readyState).toBe(
      'CANCELED',
    );
    expect((await call({ method: 'DELETE', path: `/v13/deployments/${id}` })).body).toEqual({
      uid: id,
      state: 'DELETED',
    });

    expect(
      (await call({ method: 'GET', path: '/v2/teams' })).body.teams.map((t: { slug: string }) => t.slug),
    ).toEqual(['acme']);
    expect((await call({ method: 'GET', path: '/v2/teams/team_acme' })).body.membership.role).toBe('OWNER');
    expect((await call({ method: 'GET', path: '/v2/teams/team_acme/members' })).body.members).toHaveLength(2);
    expect((await call({ method: 'DELETE', path: '/v9/projects/blog' })).status).toBe(204);
  });

  it('sends custom headers and refuses reserved ones, CR/LF and bodies on GET with nothing sent', async () => {
    fx = await deploymentsFixture();
    await call({ method: 'GET', path: '/v9/projects', headers: { 'x-request-id': 'abc-123' } });
    expect(fx.wire()[0]?.headers['x-request-id']).toBe('abc-123');
    fx.clearWire();
    for (const headers of [
      { Authorization: 'Bearer other' },
      { cookie: 'session=1' },
      { Host: 'evil.example' },
      { 'Content-Length': '1' },
      { 'Proxy-Authorization': 'Basic x' },
      { 'x-note': 'a\r\nInjected: 1' },
    ]) {
      await expect(
        fx.invokeUnchecked('deployments.api_call', { method: 'GET', path: '/v9/projects', headers }),
      ).rejects.toMatchObject({ code: 'input_invalid' });
    }
    for (const path of [
      'https://evil.example/v9/projects',
      '//evil.example/x',
      '/v9/projects/../../x',
      '/v9/%2e%2e/x',
    ]) {
      await expect(fx.invoke('deployments.api_call', { method: 'GET', path })).rejects.toMatchObject({
        code: 'input_invalid',
      });
    }
    await expect(
      fx.invoke('deployments.api_call', { method: 'GET', path: '/v9/projects', body: { a: 1 } }),
    ).rejects.toMatchObject({ code: 'input_invalid' });
    expect(fx.wire()).toEqual([]);
  });

  it("scopes every call to the connection's team and refuses teamId or slug in the path, with nothing sent", async () => {
    for (const teamId of [undefined, 'team_acme']) {
      fx = await deploymentsFixture({ teamId });
      for (const path of [
        '/v9/projects?teamId=team_globex',
        '/v9/projects?slug=globex',
        '/v9/projects?limit=5&TeamId=team_globex',
        '/v9/projects?team%49d=team_globex',
        '/v6/deployments?projectId=web&slug=globex',
        '/v9/projects/web?slug',
      ]) {
        const refused = await fx
          .invoke('deployments.api_call', { method: 'GET', path })
          .catch((error: unknown) => error);
        expect(refused, path).toMatchObject({
          code: 'input_invalid',
          fields: [{ path: 'path', message: expect.stringContaining('not allowed') }],
        });
      }
      expect(fx.wire()).toEqual([]);
      const projects = await call({ method: 'GET', path: '/v9/projects' });
      expect(fx.wire()[0]?.query.getAll('teamId')).toEqual(teamId ? [teamId] : []);
      expect(fx.wire()[0]?.query.has('slug')).toBe(false);
      const names = projects.body.projects.map((p: { name: string }) => p.name).sort();
      expect(names).toEqual(teamId ? ['docs', 'shop'] : expect.arrayContaining(['api', 'web']));
      await fx.close();
    }
    fx = await deploymentsFixture();
  });

  it("ends an error message with one period when the provider's message has its own", async () => {
    fx = await deploymentsFixture();
    const failure = (await fx
      .invoke('deployments.api_call', { method: 'GET', path: '/v6/deployments?limit=0' })
      .catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'provider_rejected', status: 400 });
    expect(failure.message).toContain('`limit` must be an integer from 1 to 100');
    expect(failure.message).not.toMatch(/\.\.$/);
    expect(failure.message).toMatch(/100\.$/);
  });

  it('answers a team the account does not belong to with permission_denied', async () => {
    fx = await deploymentsFixture({ teamId: 'team_globex' });
    await expect(
      fx.invoke('deployments.api_call', { method: 'GET', path: '/v9/projects' }),
    ).rejects.toMatchObject({
      code: 'permission_denied',
      status: 403,
      providerCode: 'forbidden',
    });
  });

  describe('with project scoping', () => {
    const constraints = { projects: ['web'] };

    it('refuses account-wide and other-project paths with nothing sent', async () => {
      fx = await deploymentsFixture();
      const refused: CatalogInput<'deployments.api_call'>[] = [
        { method: 'GET', path: '/v9/projects' },
        { method: 'GET', path: '/v2/teams' },
        { method: 'GET', path: '/v5/domains' },
        { method: 'GET', path: '/v9/projects/api/env' },
        { method: 'GET', path: '/v6/deployments' },
        { method: 'GET', path: '/v6/deployments?projectId=web&projectId=api' },
        { method: 'GET', path: '/v6/deployments?projectIds=web,api' },
        { method: 'POST', path: '/v13/deployments', body: { name: 'web', project: 'api' } },
        { method: 'POST', path: '/v10/projects', body: { name: 'other' } },
      ];
      for (const input of refused) {
        await expect(fx.invoke('deployments.api_call', input, { constraints })).rejects.toMatchObject({
          code: 'permission_denied',
        });
      }
      expect(fx.wire()).toEqual([]);
      expect((await call({ method: 'GET', path: '/v9/projects/web/env' }, { constraints })).status).toBe(200);
      expect(
        (await call({ method: 'GET', path: '/v6/deployments?projectId=web' }, { constraints })).status,
      ).toBe(200);
    });

    it('reads a deployment path first and refuses one of another project before acting', async () => {
      fx = await deploymentsFixture();
      const id = await newDeployment(fx, { project: 'api' });
      fx.clearWire();
      await expect(
        fx.invoke(
          'deployments.api_call',
          { method: 'DELETE', path: `/v13/deployments/${id}` },
          { constraints },
        ),
      ).rejects.toMatchObject({ code: 'permission_denied' });
      expect(lines(fx.wire()).every((line) => line.startsWith('GET'))).toBe(true);
      expect(fx.sandbox.deployments.deployment(id)).toBeDefined();
    });
  });
});
