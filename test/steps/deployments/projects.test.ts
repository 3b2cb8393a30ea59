import { describe, expect, it } from 'vitest';
import { resetOnce } from '../../support/faults.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { deploymentsFixture, lines } from './deployments-fixture.js';

const scopedToShop = { constraints: { projects: ['shop'] } };

describe('deployments project steps', () => {
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme' }));

  it('list_projects pages with from, newest update first, and shows only allowed projects when scoped', async () => {
    // The seed makes both projects in one millisecond; the provider pages strictly before `from`.
    fx.clock.advance(1_000);
    await fx.invoke('deployments.update_project', { project: 'docs', settings: { dev_command: 'vite' } });
    const first = await fx.invoke('deployments.list_projects', { limit: 1 });
    expect(first.output.projects[0]?.name).toBe('docs');
    expect(first.output.projects).toHaveLength(1);
    expect(first.output.has_more).toBe(true);
    const second = await fx.invoke('deployments.list_projects', {
      limit: 1,
      cursor: first.output.next_cursor!,
    });
    expect(fx.wire().at(-1)?.query.get('from')).toBe(first.output.next_cursor);
    const names = [...first.output.projects, ...second.output.projects].map((project) => project.name);
    expect(names.sort()).toEqual(['docs', 'shop']);
    const scoped = await fx.invoke('deployments.list_projects', {}, scopedToShop);
    expect(scoped.variables.project_names).toEqual(['shop']);
  });

  it('get_project reads settings, repository and latest deployment', async () => {
    const result = await fx.invoke('deployments.get_project', { project: 'shop' });
    expect(result.output.project).toMatchObject({
      name: 'shop',
      framework: 'nextjs',
      git_repository: { type: 'github', repository: 'acme/shop', production_branch: 'main' },
      latest_deployment: { state: 'READY' },
    });
  });

  it('create_project sends name, repository and settings; a project outside the scope is refused unsent', async () => {
    fx.clearWire();
    const created = await fx.invoke('deployments.create_project', {
      name: 'landing',
      repository: 'acme/landing',
      settings: { framework: 'vite', build_command: 'vite build' },
    });
    expect(fx.wire()[0]?.body).toEqual({
      name: 'landing',
      gitRepository: { type: 'github', repo: 'acme/landing' },
      framework: 'vite',
      buildCommand: 'vite build',
    });
    expect(created.output).toMatchObject({ project: { name: 'landing' }, already_done: false });
    await fx.expectRefusedUnsent({ name: 'PermissionError', sent: false }, () =>
      fx.invoke('deployments.create_project', { name: 'other' }, scopedToShop),
    );
  });

  it('create_project whose answer was lost is not sent twice: the name is looked up and reported already_done', async () => {
    fx.clearWire();
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'POST' }));
    const result = await fx.invoke('deployments.create_project', { name: 'landing' });
    expect(result.output).toMatchObject({ project: { name: 'landing' }, already_done: true });
    expect(lines(fx.wire())).toEqual(['POST /v11/projects', 'GET /v9/projects/landing']);
  });

  it('update_project renames and changes settings with one PATCH; null resets a command', async () => {
    fx.clearWire();
    const result = await fx.invoke('deployments.update_project', {
      project: 'shop',
      name: 'storefront',
      settings: { node_version: '20.x', build_command: null },
    });
    expect(lines(fx.wire())).toEqual(['PATCH /v9/projects/shop']);
    expect(fx.wire()[0]?.body).toEqual({ name: 'storefront', nodeVersion: '20.x', buildCommand: null });
    expect(result.output.project).toMatchObject({
      name: 'storefront',
      node_version: '20.x',
      build_command: null,
    });
  });

  it('update_project with nothing to change is an input error, nothing sent', async () => {
    await fx.expectRefusedUnsent({ name: 'InputError' }, () =>
      fx.invoke('deployments.update_project', { project: 'shop' }),
    );
  });

  it('delete_project deletes it (204), is destructive, and a repeat after a lost answer is already_done', async () => {
    const result = await fx.invoke('deployments.delete_project', { project: 'docs' });
    expect(result.output).toEqual({ project: 'docs', deleted: true, already_done: false });
    await expect(fx.invoke('deployments.get_project', { project: 'docs' })).rejects.toMatchObject({
      name: 'NotFoundError',
    });
    fx.sandbox.faults.add(resetOnce({ target: 'deployments', method: 'DELETE' }));
    const again = await fx.invoke('deployments.delete_project', { project: 'shop' });
    expect(again.output.already_done).toBe(true);
    expect(fx.registry.requireStep('deployments.delete_project').access).toBe('destructive');
  });

  it('delete_project outside the scope is refused unsent', async () => {
    await fx.expectRefusedUnsent({ name: 'PermissionError', sent: false }, () =>
      fx.invoke('deployments.delete_project', { project: 'docs' }, scopedToShop),
    );
  });
});
