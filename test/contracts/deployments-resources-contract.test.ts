import { describe, expect, it } from 'vitest';
import { useFixture } from '../support/fixture-lifecycle.js';
import { contractFixture } from './support/contract-fixture.js';
import { expectConforming } from './support/provider-contracts.js';

/**
 * Every deployments step of issue 24, in a team, against the provider's
 * description: what each sends (path, version, query, body) and what the
 * sandbox answers.
 */
const fx = useFixture(contractFixture, 'all');
const team = 'deploys-team';

describe('deployments resource steps against the provider description', () => {
  it('get_deployment, get_deployment_events (first page, next page, tail) and delete_deployment', async () => {
    const created = await fx.invoke(
      'deployments.create_deployment',
      { project: 'shop', branch: 'main' },
      team,
    );
    const deployment_id = created.output.deployment.id;
    fx.clock.advance(60_000);
    const got = await fx.exchangesOf('deployments.get_deployment', { deployment_id }, team);
    const first = await fx.exchangesOf(
      'deployments.get_deployment_events',
      { deployment_id, limit: 3 },
      team,
    );
    const cursor = first.output.next_cursor ?? undefined;
    const next = await fx.exchangesOf('deployments.get_deployment_events', { deployment_id, cursor }, team);
    const tail = await fx.exchangesOf(
      'deployments.get_deployment_events',
      { deployment_id, tail: true },
      team,
    );
    const deleted = await fx.exchangesOf('deployments.delete_deployment', { deployment_id }, team);
    expectConforming([got, first, next, tail, deleted].flatMap((run) => run.exchanges));
  });

  it('list and get projects', async () => {
    const runs = [
      await fx.exchangesOf('deployments.list_projects', { search: 'sh', limit: 1 }, team),
      await fx.exchangesOf('deployments.get_project', { project: 'shop' }, team),
    ];
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('create, update and delete projects', async () => {
    const runs = [
      await fx.exchangesOf(
        'deployments.create_project',
        {
          name: 'landing',
          repository: 'acme/landing',
          settings: { framework: 'nextjs', build_command: 'npm run build' },
        },
        team,
      ),
      await fx.exchangesOf(
        'deployments.update_project',
        {
          project: 'landing',
          name: 'landing-page',
          settings: { node_version: '20.x', output_directory: null },
        },
        team,
      ),
      await fx.exchangesOf('deployments.delete_project', { project: 'landing-page' }, team),
    ];
    expect(runs[0]?.exchanges.map((exchange) => `${exchange.method} ${exchange.path}`)).toEqual([
      'POST /v11/projects',
    ]);
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('list, create (upsert), update and delete environment variables', async () => {
    const created = await fx.exchangesOf(
      'deployments.create_env_var',
      {
        project: 'shop',
        key: 'API_TOKEN',
        value: 'tok_sandbox',
        type: 'sensitive',
        targets: ['production'],
        comment: 'payments',
      },
      team,
    );
    const env_id = created.output.env_var.id;
    const runs = [
      created,
      await fx.exchangesOf('deployments.list_env_vars', { project: 'shop' }, team),
      await fx.exchangesOf(
        'deployments.update_env_var',
        { project: 'shop', env_id, value: 'tok_rotated' },
        team,
      ),
      await fx.exchangesOf('deployments.delete_env_var', { project: 'shop', env_id }, team),
    ];
    expect(runs[0]?.exchanges[0]?.query.get('upsert')).toBe('true');
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('list, add and remove domains', async () => {
    const runs = [
      await fx.exchangesOf(
        'deployments.add_domain',
        { project: 'shop', domain: 'beta.acme.com', git_branch: 'beta' },
        team,
      ),
      await fx.exchangesOf('deployments.list_domains', { project: 'shop', verified: true, limit: 1 }, team),
      await fx.exchangesOf('deployments.remove_domain', { project: 'shop', domain: 'beta.acme.com' }, team),
    ];
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it("verify a project domain (not yet, then verified) and read a domain's configuration (issue 42)", async () => {
    const added = await fx.invoke(
      'deployments.add_domain',
      { project: 'shop', domain: 'shop.example.org' },
      team,
    );
    const notYet = await fx.exchangesOf(
      'deployments.verify_project_domain',
      { project: 'shop', domain: 'shop.example.org' },
      team,
    );
    expect(notYet.exchanges.map((exchange) => exchange.status)).toEqual([400, 200]);
    const challenge = added.output.domain.verification[0]!;
    fx.sandbox.deployments.setDns(challenge.domain, [{ type: 'TXT', value: challenge.value }]);
    const runs = [
      notYet,
      await fx.exchangesOf(
        'deployments.verify_project_domain',
        { project: 'shop', domain: 'shop.example.org' },
        team,
      ),
      await fx.exchangesOf(
        'deployments.get_domain_config',
        { domain: 'shop.acme.com', project: 'shop' },
        team,
      ),
      await fx.exchangesOf('deployments.get_domain_config', { domain: 'acme.com' }, team),
    ];
    expect(runs[1]?.output).toMatchObject({ domain: { verified: true } });
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('list and get account domains (issue 42)', async () => {
    const listed = await fx.exchangesOf('deployments.list_account_domains', { limit: 1 }, team);
    const shown = await fx.exchangesOf('deployments.get_account_domain', { domain: 'acme.com' }, team);
    expect((shown.output as { domain: { team_id: string } }).domain.team_id).toBe('team_acme');
    expectConforming([...listed.exchanges, ...shown.exchanges]);
  });

  it('list, get, assign and delete aliases (issue 42)', async () => {
    const created = await fx.invoke(
      'deployments.create_deployment',
      { project: 'shop', branch: 'main' },
      team,
    );
    const deployment_id = created.output.deployment.id;
    const runs = [
      await fx.exchangesOf('deployments.list_aliases', { project: 'shop', limit: 5 }, team),
      await fx.exchangesOf('deployments.get_alias', { alias: 'shop-acme.vercel.app' }, team),
      await fx.exchangesOf(
        'deployments.assign_alias',
        { deployment_id, alias: 'shop-acme.vercel.app' },
        team,
      ),
      await fx.exchangesOf('deployments.delete_alias', { alias: 'shop-acme.vercel.app' }, team),
    ];
    expect(runs[2]?.output).toMatchObject({ deployment_id, previous_deployment_id: expect.any(String) });
    expectConforming(runs.flatMap((run) => run.exchanges));
  });

  it('redeploy and promote_deployment (issue 42); rollback_project has no operation in the vendored description', async () => {
    const listed = await fx.invoke(
      'deployments.list_deployments',
      { project: 'shop', environment: 'production' },
      team,
    );
    const production = listed.output.deployments[0]!.id;
    const redeployed = await fx.exchangesOf('deployments.redeploy', { deployment_id: production }, team);
    expect(redeployed.exchanges.at(-1)?.body).toMatchObject({ deploymentId: production, name: 'shop' });
    const promoted = await fx.exchangesOf(
      'deployments.promote_deployment',
      { project: 'shop', deployment_id: production },
      team,
    );
    expectConforming([...redeployed.exchanges, ...promoted.exchanges]);
  });

  it('list teams and team members', async () => {
    const runs = [
      await fx.exchangesOf('deployments.list_teams', { limit: 5 }),
      await fx.exchangesOf('deployments.list_team_members', { search: 'sam', role: 'MEMBER' }, team),
    ];
    expect(runs[1]?.exchanges[0]?.path).toBe('/v3/teams/team_acme/members');
    expectConforming(runs.flatMap((run) => run.exchanges));
  });
});
