import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import { type GitLink, type ProjectRecord, stateAt } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, intParam, notFound, projectOf, timePage } from './deployments-wire.js';

const PROJECT_NAME = /^[a-z0-9._-]{1,100}$/;
const SETTINGS = [
  'framework',
  'buildCommand',
  'installCommand',
  'outputDirectory',
  'rootDirectory',
  'devCommand',
  'nodeVersion',
] as const;

/** The git link as the provider answers it: every kind carries its credential and deploy hooks. */
function renderLink(link: GitLink) {
  const common = { gitCredentialId: '', deployHooks: [] };
  if (link.type !== 'gitlab') return { ...link, ...common };
  const path = `acme/project-${link.projectId}`;
  return {
    ...link,
    ...common,
    projectId: String(link.projectId),
    projectName: path.split('/')[1],
    projectNameWithNamespace: path,
    projectNamespace: path.split('/')[0],
    projectUrl: `https://gitlab.com/${path}`,
  };
}

function renderProject(caller: Caller, project: ProjectRecord) {
  const plan = caller.scope.ownerId.startsWith('team_') ? 'pro' : 'hobby';
  const latest = [...caller.scope.deployments.values()]
    .filter((deployment) => deployment.projectId === project.id)
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 1)
    .map((deployment) => {
      const creator = [...caller.world.users.values()].find((user) => user.id === deployment.creatorId);
      return {
        id: deployment.id,
        url: deployment.url,
        name: deployment.name,
        createdAt: deployment.createdAt,
        createdIn: 'sfo1',
        creator: {
          uid: deployment.creatorId,
          email: creator?.email ?? '',
          username: creator?.username ?? '',
        },
        deploymentHostname: deployment.url,
        plan,
        private: true,
        readyState: stateAt(deployment, caller.now).readyState,
        type: 'LAMBDAS',
        userId: deployment.creatorId,
      };
    });
  return {
    ...project,
    // Required by the provider's description or by the current official SDK; no model here.
    directoryListing: false,
    alias: [],
    deploymentExpiration: { expirationDays: 180 },
    resourceConfig: { functionDefaultRegions: ['iad1'] },
    defaultResourceConfig: { functionDefaultRegions: ['iad1'] },
    link: project.link ? renderLink(project.link) : null,
    latestDeployments: latest,
  };
}

function settingsProblem(body: Record<string, unknown>): string | undefined {
  for (const key of SETTINGS) {
    const value = body[key];
    if (value !== undefined && value !== null && typeof value !== 'string')
      return `\`${key}\` must be a string.`;
  }
  return undefined;
}

function applySettings(project: ProjectRecord, body: Record<string, unknown>): void {
  for (const key of SETTINGS) {
    if (body[key] === undefined) continue;
    if (key === 'nodeVersion') project.nodeVersion = String(body[key]);
    else project[key] = (body[key] as string | null) ?? null;
  }
}

function createProject(request: DeploymentsRequest): Reply {
  const caller = request.caller;
  const body = objectBody(request);
  if (!body || typeof body.name !== 'string') return badRequest('missing required property `name`.');
  if (!PROJECT_NAME.test(body.name)) {
    return badRequest(
      '`name` may only contain lowercase letters, digits, ".", "_" and "-", up to 100 characters.',
    );
  }
  if (caller.scope.project(body.name)) {
    return apiError(409, 'conflict', `A project with the name "${body.name}" already exists.`);
  }
  const problem = settingsProblem(body);
  if (problem) return badRequest(problem);
  let link: GitLink | null = null;
  const repository = body.gitRepository as { type?: unknown; repo?: unknown } | undefined;
  if (repository !== undefined) {
    const [org, repo] = typeof repository?.repo === 'string' ? repository.repo.split('/') : [];
    if (repository?.type !== 'github' || !org || !repo) {
      return badRequest('`gitRepository` must be {"type": "github", "repo": "owner/name"}.');
    }
    link = {
      type: 'github',
      org,
      repo,
      repoId: 5000 + caller.scope.projects.size,
      productionBranch: 'main',
      createdAt: caller.now,
    };
  }
  const project = caller.world.addProject(caller.scope, { name: body.name, link });
  applySettings(project, body);
  return json(200, renderProject(caller, project));
}

function updateProject(request: DeploymentsRequest): Reply {
  const caller = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const body = objectBody(request);
  if (!body) return badRequest('the body must be a JSON object.');
  const problem = settingsProblem(body);
  if (problem) return badRequest(problem);
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || !PROJECT_NAME.test(body.name))
      return badRequest('`name` is not valid.');
    const clash = caller.scope.project(body.name);
    if (clash && clash.id !== project.id) {
      return apiError(409, 'conflict', `A project with the name "${body.name}" already exists.`);
    }
    project.name = body.name;
  }
  applySettings(project, body);
  project.updatedAt = caller.now;
  return json(200, renderProject(caller, project));
}

function deleteProject(request: DeploymentsRequest): Reply {
  const { scope } = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  scope.projects.delete(project.id);
  for (const [id, deployment] of scope.deployments)
    if (deployment.projectId === project.id) scope.deployments.delete(id);
  for (const [name, domain] of scope.projectDomains)
    if (domain.projectId === project.id) scope.projectDomains.delete(name);
  for (const [id, env] of scope.envs) if (env.projectId === project.id) scope.envs.delete(id);
  return { status: 204 };
}

export function projectRoutes(router: Router<Caller>): void {
  router
    // The current official SDK lists with v10 and creates with v11; same answers.
    .on('GET', ['/v9/projects', '/v10/projects'], listProjects)
    .on('POST', ['/v11/projects', '/v10/projects'], createProject)
    .on('GET', '/v9/projects/:id', (request) => {
      const project = projectOf(request);
      return project ? json(200, renderProject(request.caller, project)) : notFound('Project');
    })
    .on('PATCH', '/v9/projects/:id', updateProject)
    .on('DELETE', '/v9/projects/:id', deleteProject);
}

function listProjects(request: DeploymentsRequest): Reply {
  {
    const caller = request.caller;
    const limit = intParam(request, 'limit', { min: 1, max: 100 });
    // v10 pages with `from` (the previous page's pagination.next); v9 with `until`.
    const from = intParam(request, 'from', { min: 0, max: Number.MAX_SAFE_INTEGER });
    const until = from ?? intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
    if (limit === 'invalid' || until === 'invalid' || from === 'invalid')
      return badRequest('`limit` is 1 to 100; `until` a ms timestamp.');
    const search = request.query.get('search')?.toLowerCase();
    const projects = [...caller.scope.projects.values()]
      .filter((project) => !search || project.name.includes(search))
      .filter((project) => until === undefined || project.updatedAt < until)
      .sort((a, b) => b.updatedAt - a.updatedAt);
    const { page, pagination } = timePage(projects, limit ?? 20, (project) => project.updatedAt);
    return json(200, { projects: page.map((project) => renderProject(caller, project)), pagination });
  }
}
