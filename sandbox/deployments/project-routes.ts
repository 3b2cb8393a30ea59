import type { Router } from '../router.js';
import { json, type Reply, type SandboxRequest } from '../sandbox-http.js';
import {
  apiError,
  badRequest,
  type Caller,
  callerOf,
  intParam,
  notFound,
  objectBody,
  timePage,
} from './deployments-http.js';
import {
  ENV_TARGETS,
  ENV_TYPES,
  type EnvRecord,
  type EnvType,
  type GitLink,
  type ProjectDomainRecord,
  type ProjectRecord,
} from './deployments-state.js';

const PROJECT_NAME = /^[a-z0-9._-]{1,100}$/;
const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const SETTINGS = [
  'framework',
  'buildCommand',
  'installCommand',
  'outputDirectory',
  'rootDirectory',
  'devCommand',
  'nodeVersion',
] as const;

function projectOf(request: SandboxRequest): ProjectRecord | undefined {
  return callerOf(request).scope.project(request.params.id ?? '');
}

function renderProject(caller: Caller, project: ProjectRecord) {
  const latest = [...caller.scope.deployments.values()]
    .filter((deployment) => deployment.projectId === project.id)
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 1)
    .map((deployment) => ({ id: deployment.id, url: deployment.url, createdAt: deployment.createdAt }));
  return { ...project, latestDeployments: latest };
}

function renderEnv(env: EnvRecord, decrypt: boolean) {
  // Encrypted values come back as ciphertext unless decryption is asked for; sensitive ones never come back.
  const value =
    env.type === 'sensitive'
      ? ''
      : env.type === 'encrypted' && !decrypt
        ? Buffer.from(`enc:${env.id}`).toString('base64')
        : env.value;
  return { ...env, value, decrypted: env.type === 'encrypted' && decrypt, configurationId: null };
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

function createProject(request: SandboxRequest): Reply {
  const caller = callerOf(request);
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

function updateProject(request: SandboxRequest): Reply {
  const caller = callerOf(request);
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

function deleteProject(request: SandboxRequest): Reply {
  const { scope } = callerOf(request);
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

function apexOf(domain: string): string {
  return domain.split('.').slice(-2).join('.');
}

function addProjectDomain(request: SandboxRequest): Reply {
  const caller = callerOf(request);
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const body = objectBody(request);
  const name = typeof body?.name === 'string' ? body.name.toLowerCase() : undefined;
  if (!name || !DOMAIN_NAME.test(name))
    return apiError(400, 'invalid_domain', 'The domain name is not valid.');
  const existing = caller.scope.projectDomains.get(name);
  if (existing) {
    return apiError(409, 'domain_already_in_use', `The domain "${name}" is already assigned to a project.`, {
      projectId: existing.projectId,
    });
  }
  const apexName = apexOf(name);
  const verified = caller.scope.domains.get(apexName)?.verified === true;
  const record: ProjectDomainRecord = {
    name,
    apexName,
    projectId: project.id,
    redirect: typeof body?.redirect === 'string' ? body.redirect : null,
    redirectStatusCode: typeof body?.redirectStatusCode === 'number' ? body.redirectStatusCode : null,
    gitBranch: typeof body?.gitBranch === 'string' ? body.gitBranch : null,
    verified,
    createdAt: caller.now,
    updatedAt: caller.now,
  };
  caller.scope.projectDomains.set(name, record);
  return json(200, {
    ...record,
    ...(verified
      ? {}
      : {
          verification: [
            {
              type: 'TXT',
              domain: `_vercel.${apexName}`,
              value: `vc-domain-verify=${name},sandbox`,
              reason: 'pending_domain_verification',
            },
          ],
        }),
  });
}

function removeProjectDomain(request: SandboxRequest): Reply {
  const { scope } = callerOf(request);
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const name = (request.params.domain ?? '').toLowerCase();
  const record = scope.projectDomains.get(name);
  if (!record || record.projectId !== project.id) return notFound(`Domain "${name}" of this project`);
  scope.projectDomains.delete(name);
  return json(200, {});
}

function envProblem(input: Record<string, unknown>): string | undefined {
  if (typeof input.key !== 'string' || !ENV_KEY.test(input.key))
    return '`key` must be a valid variable name.';
  if (typeof input.value !== 'string') return '`value` must be a string.';
  if (!ENV_TYPES.includes(input.type as EnvType)) return `\`type\` must be one of ${ENV_TYPES.join(', ')}.`;
  const target = input.target;
  if (
    !Array.isArray(target) ||
    target.length === 0 ||
    target.some((entry) => !(ENV_TARGETS as readonly unknown[]).includes(entry))
  ) {
    return '`target` must be a non-empty list of production, preview and development.';
  }
  if (input.type === 'sensitive' && target.includes('development')) {
    return 'sensitive variables cannot target development.';
  }
  return undefined;
}

function clashOf(caller: Caller, project: ProjectRecord, input: Record<string, unknown>, exceptId?: string) {
  const targets = input.target as string[];
  const branch = typeof input.gitBranch === 'string' ? input.gitBranch : null;
  return [...caller.scope.envs.values()].find(
    (env) =>
      env.projectId === project.id &&
      env.id !== exceptId &&
      env.key === input.key &&
      env.gitBranch === branch &&
      env.target.some((target) => targets.includes(target)),
  );
}

function createEnv(request: SandboxRequest): Reply {
  const caller = callerOf(request);
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const many = Array.isArray(request.body);
  const inputs = (many ? request.body : [request.body]) as unknown[];
  if (inputs.length === 0 || inputs.some((input) => typeof input !== 'object' || input === null)) {
    return badRequest('the body must be a variable object or a list of them.');
  }
  const upsert = request.query.get('upsert') === 'true';
  const created: unknown[] = [];
  const failed: unknown[] = [];
  for (const raw of inputs as Record<string, unknown>[]) {
    const problem = envProblem(raw);
    if (problem) {
      if (!many) return badRequest(problem);
      failed.push({ error: { code: 'bad_request', message: problem, key: raw.key } });
      continue;
    }
    const clash = clashOf(caller, project, raw);
    if (clash && !upsert) {
      const error = {
        code: 'ENV_ALREADY_EXISTS',
        message: `A variable with the name "${String(raw.key)}" already exists for the target.`,
        key: raw.key,
        envVarId: clash.id,
      };
      if (!many) return json(400, { error });
      failed.push({ error });
      continue;
    }
    const fields = {
      key: raw.key as string,
      value: raw.value as string,
      type: raw.type as EnvType,
      target: [...(raw.target as string[])],
      gitBranch: typeof raw.gitBranch === 'string' ? raw.gitBranch : null,
    };
    if (clash) {
      Object.assign(clash, fields, { updatedAt: caller.now });
      created.push(renderEnv(clash, false));
    } else created.push(renderEnv(caller.world.addEnv(caller.scope, project, caller.user, fields), false));
  }
  return json(201, { created: many ? created : created[0], failed });
}

function updateEnv(request: SandboxRequest): Reply {
  const caller = callerOf(request);
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const env = caller.scope.envs.get(request.params.envId ?? '');
  if (!env || env.projectId !== project.id) return notFound('Environment variable');
  const body = objectBody(request);
  if (!body) return badRequest('the body must be a JSON object.');
  const next = { ...env, ...body };
  const problem = envProblem(next);
  if (problem) return badRequest(problem);
  if (clashOf(caller, project, next, env.id)) {
    return json(400, {
      error: {
        code: 'ENV_CONFLICT',
        message: `Another variable named "${String(next.key)}" targets the same environment.`,
      },
    });
  }
  Object.assign(env, {
    key: next.key,
    value: next.value,
    type: next.type,
    target: [...(next.target as string[])],
    gitBranch: typeof next.gitBranch === 'string' ? next.gitBranch : null,
    updatedAt: caller.now,
  });
  return json(200, renderEnv(env, false));
}

/** Projects, their domains and environment variables, and the account's domains. */
export function projectRoutes(router: Router): void {
  router
    .on('GET', '/v9/projects', (request) => {
      const caller = callerOf(request);
      const limit = intParam(request, 'limit', { min: 1, max: 100 });
      const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
      if (limit === 'invalid' || until === 'invalid')
        return badRequest('`limit` is 1 to 100; `until` a ms timestamp.');
      const search = request.query.get('search')?.toLowerCase();
      const projects = [...caller.scope.projects.values()]
        .filter((project) => !search || project.name.includes(search))
        .filter((project) => until === undefined || project.updatedAt < until)
        .sort((a, b) => b.updatedAt - a.updatedAt);
      const { page, pagination } = timePage(projects, limit ?? 20, (project) => project.updatedAt);
      return json(200, { projects: page.map((project) => renderProject(caller, project)), pagination });
    })
    .on('POST', '/v10/projects', createProject)
    .on('GET', '/v9/projects/:id', (request) => {
      const project = projectOf(request);
      return project ? json(200, renderProject(callerOf(request), project)) : notFound('Project');
    })
    .on('PATCH', '/v9/projects/:id', updateProject)
    .on('DELETE', '/v9/projects/:id', deleteProject)
    .on('POST', '/v10/projects/:id/domains', addProjectDomain)
    .on('DELETE', '/v9/projects/:id/domains/:domain', removeProjectDomain)
    .on('GET', '/v9/projects/:id/env', (request) => {
      const { scope } = callerOf(request);
      const project = projectOf(request);
      if (!project) return notFound('Project');
      const decrypt = request.query.get('decrypt') === 'true';
      const branch = request.query.get('gitBranch');
      const envs = [...scope.envs.values()]
        .filter((env) => env.projectId === project.id)
        .filter((env) => branch === null || env.gitBranch === null || env.gitBranch === branch)
        .map((env) => renderEnv(env, decrypt));
      return json(200, { envs });
    })
    .on('POST', '/v10/projects/:id/env', createEnv)
    .on('PATCH', '/v9/projects/:id/env/:envId', updateEnv)
    .on('DELETE', '/v9/projects/:id/env/:envId', (request) => {
      const { scope } = callerOf(request);
      const project = projectOf(request);
      if (!project) return notFound('Project');
      const env = scope.envs.get(request.params.envId ?? '');
      if (!env || env.projectId !== project.id) return notFound('Environment variable');
      scope.envs.delete(env.id);
      return json(200, renderEnv(env, false));
    })
    .on('GET', '/v5/domains', (request) => {
      const { scope } = callerOf(request);
      const limit = intParam(request, 'limit', { min: 1, max: 100 });
      if (limit === 'invalid') return badRequest('`limit` must be an integer from 1 to 100.');
      const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
      if (until === 'invalid') return badRequest('`until` must be a ms timestamp.');
      const domains = [...scope.domains.values()]
        .filter((domain) => until === undefined || domain.createdAt < until)
        .sort((a, b) => b.createdAt - a.createdAt);
      const { page, pagination } = timePage(domains, limit ?? 20, (domain) => domain.createdAt);
      return json(200, { domains: page.map((domain) => renderDomain(domain)), pagination });
    })
    .on('GET', '/v5/domains/:domain', (request) => {
      const domain = callerOf(request).scope.domains.get((request.params.domain ?? '').toLowerCase());
      return domain ? json(200, { domain: renderDomain(domain) }) : notFound('Domain');
    });
}

function renderDomain(domain: {
  id: string;
  name: string;
  ownerId: string;
  creatorId: string;
  verified: boolean;
  createdAt: number;
}) {
  return {
    id: domain.id,
    name: domain.name,
    serviceType: 'external',
    verified: domain.verified,
    nameservers: ['ns1.registrar.example', 'ns2.registrar.example'],
    intendedNameservers: ['ns1.vercel-dns.com', 'ns2.vercel-dns.com'],
    createdAt: domain.createdAt,
    expiresAt: null,
    boughtAt: null,
    creator: { id: domain.creatorId },
    ...(domain.ownerId.startsWith('team_') ? { teamId: domain.ownerId } : { userId: domain.ownerId }),
  };
}
