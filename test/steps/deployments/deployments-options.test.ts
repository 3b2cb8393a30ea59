import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildManifest } from '../../../src/catalog/manifest.js';
import { type DeploymentsFixture, deploymentsFixture, newDeployment } from './deployments-fixture.js';

/**
 * The deployments fields' choices from the sandbox (ada: personal projects
 * web and api; team acme with shop and docs; team globex, sam's, with portal).
 */
let fx: DeploymentsFixture;
beforeAll(async () => {
  fx = await deploymentsFixture({ teamId: 'team_acme' });
});
afterAll(() => fx.close());

const DEPLOYMENT_STEPS = [
  'deployments.get_deployment',
  'deployments.get_deployment_events',
  'deployments.delete_deployment',
];

const options = (step: string, field: string, extra: Record<string, unknown> = {}) =>
  fx.registry.options(fx.runtime, step, field, { connection: 'vercel-main', ...extra });

describe('deployments options', () => {
  it('domain of get_account_domain: the account’s domains, verified or not (issue 42)', async () => {
    const domains = await options('deployments.get_account_domain', 'domain');
    expect(domains.items.length).toBeGreaterThan(0);
    expect(domains.items[0]).toMatchObject({ description: expect.stringMatching(/verified/) });
  });

  it('project: the team’s projects, searchable, within the embedder’s project constraints', async () => {
    const all = await options('deployments.create_deployment', 'project');
    expect(all.items.map((item) => item.value).sort()).toEqual(['docs', 'shop']);
    expect((await options('deployments.list_deployments', 'project', { query: 'sho' })).items).toEqual([
      expect.objectContaining({ value: 'shop', label: 'shop' }),
    ]);
    const limited = await options('deployments.create_deployment', 'project', {
      constraints: { projects: ['docs'] },
      query: 'o',
    });
    expect(limited.items.map((item) => item.value)).toEqual(['docs']);
  });

  it('deployment for cancel: only the queued or building ones', async () => {
    const before = await options('deployments.cancel_deployment', 'deployment_id');
    expect(before.items).toEqual([]);
    const id = await newDeployment(fx, { project: 'shop' });
    fx.runtime.answers.clear();
    const queued = await options('deployments.cancel_deployment', 'deployment_id');
    expect(queued.items).toEqual([expect.objectContaining({ value: id, description: 'QUEUED' })]);
    fx.clock.advance(120_000); // READY: no longer cancelable
    fx.runtime.answers.clear();
    expect((await options('deployments.cancel_deployment', 'deployment_id')).items).toEqual([]);
  });

  it('environment target: the closed list, no connection needed', async () => {
    const targets = await fx.registry.options(fx.runtime, 'deployments.create_deployment', 'environment');
    expect(targets.items.map((item) => item.value)).toEqual(['production', 'preview', 'development']);
  });

  it('team: the teams the connection’s user belongs to, on List Team Members; none under project scoping', async () => {
    const teams = await options('deployments.list_team_members', 'team');
    expect(teams.items).toEqual([{ value: 'team_acme', label: 'Acme', description: 'acme' }]);
    await fx.expectRefusedUnsent({ code: 'permission_denied' }, () =>
      options('deployments.list_team_members', 'team', { constraints: { projects: ['shop'] } }),
    );
  });

  it('project: offered on every step that takes one', async () => {
    // Read from the manifest, so that a step added later with a project field is held to it too.
    const takingProject = buildManifest(fx.registry)
      .steps.filter(
        (step) =>
          step.integration === 'deployments' &&
          Object.hasOwn((step.input.properties ?? {}) as Record<string, unknown>, 'project'),
      )
      .map((step) => step.id);
    // All but the project list and create, the deployment-id steps (promote and roll back take both), the teams, account domains, alias reads by name and API Call.
    expect(takingProject).toHaveLength(17);
    for (const step of takingProject) {
      const projects = await options(step, 'project');
      expect(projects.items.map((item) => item.value).sort(), step).toEqual(['docs', 'shop']);
    }
  });

  it('environment targets of a variable: the closed list, no connection needed', async () => {
    for (const step of ['deployments.create_env_var', 'deployments.update_env_var']) {
      const targets = await fx.registry.options(fx.runtime, step, 'targets', { query: 'pro' });
      expect(targets.items.map((item) => item.value)).toEqual(['production']);
    }
  });

  it('deployment for get, events and delete: recent ones in any state, newest first', async () => {
    const id = await newDeployment(fx, { project: 'docs' });
    fx.runtime.answers.clear();
    for (const step of DEPLOYMENT_STEPS) {
      const recent = await options(step, 'deployment_id');
      expect(recent.items[0], step).toEqual(expect.objectContaining({ value: id }));
      expect(recent.items.length, step).toBeGreaterThanOrEqual(2);
    }
  });
});

/** Fields inside one project depend on the project field: the same field answers per project. */
describe('choices that depend on the project', () => {
  it('env_id: the chosen project’s variables, by name, never a value', async () => {
    const shop = await options('deployments.update_env_var', 'env_id', { input: { project: 'shop' } });
    expect(shop.items.map((item) => item.label).sort()).toEqual(['DATABASE_URL', 'NEXT_PUBLIC_SITE_NAME']);
    expect(JSON.stringify(shop)).not.toContain('postgres://');
    const database = shop.items.find((item) => item.label === 'DATABASE_URL')!;
    expect(database.description).toBe('encrypted · production, preview');
    const docs = await options('deployments.delete_env_var', 'env_id', { input: { project: 'docs' } });
    expect(docs.items).toEqual([]);
  });

  it('domain for Remove Domain, Verify Project Domain and Get Domain Configuration: the chosen project’s domains', async () => {
    for (const step of [
      'deployments.remove_domain',
      'deployments.verify_project_domain',
      'deployments.get_domain_config',
    ]) {
      const shop = await options(step, 'domain', { input: { project: 'shop' } });
      expect(shop.items, step).toEqual([
        { value: 'shop.acme.com', label: 'shop.acme.com', description: 'verified' },
      ]);
    }
    expect(
      (await options('deployments.remove_domain', 'domain', { input: { project: 'docs' } })).items,
    ).toEqual([]);
  });

  it('without the project, or with one the constraints leave out: refused, nothing sent', async () => {
    await fx.expectRefusedUnsent(
      { code: 'input_invalid', fields: [{ path: 'input.project', message: 'required for these options' }] },
      () => options('deployments.update_env_var', 'env_id'),
    );
    await fx.expectRefusedUnsent({ code: 'permission_denied' }, () =>
      options('deployments.remove_domain', 'domain', {
        input: { project: 'shop' },
        constraints: { projects: ['docs'] },
      }),
    );
    await fx.expectRefusedUnsent({ code: 'input_invalid' }, () =>
      options('deployments.update_env_var', 'env_id', { input: { project: '../etc' } }),
    );
  });

  it('the manifest marks env_id and domain as depending on project', () => {
    const steps = buildManifest(fx.registry).steps;
    const mark = (step: string, field: string) =>
      (steps.find((entry) => entry.id === step)!.input.properties as Record<string, Record<string, unknown>>)[
        field
      ]!['x-toolsteps-options'];
    expect(mark('deployments.update_env_var', 'env_id')).toEqual({
      dependsOn: ['project'],
      searchable: false,
      fixed: false,
    });
    expect(mark('deployments.remove_domain', 'domain')).toMatchObject({ dependsOn: ['project'] });
    expect(mark('deployments.create_env_var', 'targets')).toMatchObject({ fixed: true });
  });
});
