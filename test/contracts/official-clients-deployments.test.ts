import { Vercel } from '@vercel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';

/**
 * Vercel's own TypeScript SDK (@vercel/sdk), unmodified, against the
 * sandbox: the endpoint versions the current SDK calls (list deployments
 * v7, projects v10/v11, webhooks v1), and paging past 100 deployments with
 * the `pagination.next` the sandbox answers.
 */
let sandbox: Sandbox;
let vercel: Vercel;

beforeAll(async () => {
  sandbox = await startSandbox();
  vercel = new Vercel({
    bearerToken: sandbox.deployments.issueToken(1),
    serverURL: sandbox.baseUrl('deployments'),
  });
  sandbox.deployments.seedDeployments(130);
});
afterAll(() => sandbox.close());

describe('@vercel/sdk against the deployments sandbox', () => {
  it('lists more than 100 deployments, page by page with pagination.next', async () => {
    const ids: string[] = [];
    let until: number | undefined;
    for (let page = 0; page < 10; page += 1) {
      const answer = await vercel.deployments.getDeployments({ limit: 50, projectId: 'web', until });
      ids.push(...answer.deployments.map((deployment) => deployment.uid));
      if (!answer.pagination.next) break;
      until = answer.pagination.next;
    }
    expect(ids.length).toBeGreaterThan(130);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('creates, reads and cancels a deployment', async () => {
    const created = await vercel.deployments.createDeployment({
      requestBody: { name: 'web', project: 'web', gitSource: { type: 'github', repoId: 2001, ref: 'main' } },
    });
    expect(created).toMatchObject({ name: 'web', readyState: 'QUEUED' });
    const shown = await vercel.deployments.getDeployment({ idOrUrl: created.id });
    expect(shown).toMatchObject({ id: created.id, name: 'web' });
    const cancelled = await vercel.deployments.cancelDeployment({ id: created.id });
    expect(cancelled).toMatchObject({ id: created.id, readyState: 'CANCELED' });
  });

  it('lists, creates and reads projects', async () => {
    const listed = await vercel.projects.getProjects({});
    const projects = 'projects' in listed ? listed.projects : [];
    expect(projects.map((project) => project.name)).toContain('web');
    const created = await vercel.projects.createProject({ requestBody: { name: 'docs-site' } });
    expect(created).toMatchObject({ name: 'docs-site' });
  });

  it('reads the teams and the signed-in user', async () => {
    const teams = await vercel.teams.getTeams({});
    expect(teams.teams.map((team) => team.id)).toContain('team_acme');
    const team = await vercel.teams.getTeam({ teamId: 'team_acme' });
    expect(team).toMatchObject({ id: 'team_acme' });
    const user = await vercel.user.getAuthUser();
    expect(user?.user).toMatchObject({ username: 'ada' });
  });
});
