import { Vercel } from '@vercel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/model/clock.js';

/**
 * @vercel/sdk, unmodified, against the sandbox for the operation of every
 * deployments step of issue 24: the paths and versions the SDK itself sends
 * (events v3, env list v10, project domains, team members v3), and answers
 * its own response schemas accept.
 */
let sandbox: Sandbox;
let vercel: Vercel;
const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));

beforeAll(async () => {
  sandbox = await startSandbox({ clock });
  vercel = new Vercel({
    bearerToken: sandbox.deployments.issueToken(1),
    serverURL: sandbox.baseUrl('deployments'),
  });
});
afterAll(() => sandbox.close());

const teamId = 'team_acme';

describe('@vercel/sdk against the deployments sandbox: the issue 24 operations', () => {
  it('reads a deployment, its build events, and deletes it', async () => {
    const created = await vercel.deployments.createDeployment({
      teamId,
      requestBody: {
        name: 'shop',
        project: 'shop',
        gitSource: { type: 'github', repoId: 2001, ref: 'main' },
      },
    });
    clock.advance(60_000);
    const shown = await vercel.deployments.getDeployment({ idOrUrl: created.id, teamId });
    expect(shown).toMatchObject({ id: created.id, readyState: 'READY' });
    const events = await vercel.deployments.getDeploymentEvents({ idOrUrl: created.id, teamId, limit: 5 });
    expect(Array.isArray(events) && events.length).toBe(5);
    const deleted = await vercel.deployments.deleteDeployment({ id: created.id, teamId });
    expect(deleted).toEqual({ uid: created.id, state: 'DELETED' });
  });

  it('creates a project (create_project), and a taken name is refused', async () => {
    const created = await vercel.projects.createProject({
      teamId,
      requestBody: { name: 'made-by-sdk', framework: 'nextjs' },
    });
    expect(created).toMatchObject({ name: 'made-by-sdk' });
    expect(await vercel.projects.getProject({ idOrName: 'made-by-sdk', teamId })).toMatchObject({
      name: 'made-by-sdk',
    });
    await expect(
      vercel.projects.createProject({ teamId, requestBody: { name: 'made-by-sdk' } }),
    ).rejects.toThrow();
  });

  it('lists, reads, updates and deletes projects', async () => {
    const listed = await vercel.projects.getProjects({ teamId, limit: '1' });
    const first = 'projects' in listed ? listed.projects : [];
    expect(first).toHaveLength(1);
    const shown = await vercel.projects.getProject({ idOrName: 'shop', teamId });
    expect(shown).toMatchObject({ name: 'shop' });
    const updated = await vercel.projects.updateProject({
      idOrName: 'shop',
      teamId,
      requestBody: { buildCommand: 'npm run build:ci' },
    });
    expect(updated).toMatchObject({ name: 'shop', buildCommand: 'npm run build:ci' });
    await vercel.projects.deleteProject({ idOrName: 'docs', teamId });
    await expect(vercel.projects.getProject({ idOrName: 'docs', teamId })).rejects.toThrow();
  });

  it('lists, creates (upsert), edits and removes environment variables', async () => {
    const created = await vercel.projects.createProjectEnv({
      idOrName: 'shop',
      teamId,
      upsert: 'true',
      requestBody: { key: 'FEATURE_FLAG', value: 'on', type: 'plain', target: ['preview'] },
    });
    const env = Array.isArray(created.created) ? created.created[0] : created.created;
    expect(env).toMatchObject({ key: 'FEATURE_FLAG' });
    const id = (env as { id: string }).id;
    const listed = await vercel.projects.filterProjectEnvs({ idOrName: 'shop', teamId });
    expect(JSON.stringify(listed)).toContain('FEATURE_FLAG');
    const edited = await vercel.projects.editProjectEnv({
      idOrName: 'shop',
      id,
      teamId,
      requestBody: { value: 'off' },
    });
    expect(edited).toMatchObject({ id, value: 'off' });
    await vercel.projects.removeProjectEnv({ idOrName: 'shop', id, teamId });
  });

  it('lists, adds and removes project domains', async () => {
    const added = await vercel.projects.addProjectDomain({
      idOrName: 'shop',
      teamId,
      requestBody: { name: 'www.acme.com' },
    });
    expect(added).toMatchObject({ name: 'www.acme.com', verified: true });
    const listed = await vercel.projects.getProjectDomains({ idOrName: 'shop', teamId });
    const domains = 'domains' in listed ? listed.domains : [];
    expect(domains.map((domain) => domain.name)).toContain('www.acme.com');
    const one = await vercel.projects.getProjectDomain({ idOrName: 'shop', domain: 'www.acme.com', teamId });
    expect(one).toMatchObject({ name: 'www.acme.com' });
    await vercel.projects.removeProjectDomain({ idOrName: 'shop', domain: 'www.acme.com', teamId });
  });

  it("lists teams and a team's members at /v3/teams/{teamId}/members", async () => {
    const teams = await vercel.teams.getTeams({});
    expect(teams.teams.map((team) => team.id)).toContain(teamId);
    const members = await vercel.teams.getTeamMembers({ teamId, role: 'OWNER' });
    expect(members.members.map((member) => member.username)).toEqual(['ada']);
  });
});
