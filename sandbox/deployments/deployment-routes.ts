import { definedOnly } from '../../src/values/defined-only.js';
import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import { CANCELABLE, type DeploymentRecord, READY_STATES, stateAt } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, intParam, notFound, timePage } from './deployments-wire.js';

/** Targets a create accepts: production, staging, or preview spelled out; anything else is not an environment here. */
const CREATE_TARGETS = new Set(['production', 'staging', 'preview']);
const GIT_TYPES = new Set(['github', 'gitlab', 'bitbucket']);

function creatorOf(caller: Caller, deployment: DeploymentRecord) {
  const user = [...caller.world.users.values()].find((candidate) => candidate.id === deployment.creatorId);
  return { uid: deployment.creatorId, username: user?.username ?? 'unknown', email: user?.email };
}

/** The provider's `source` values; a deployment made from uploaded files through the API has none of them. */
const SOURCES = new Set([
  'api-trigger-git-deploy',
  'cli',
  'clone/repo',
  'git',
  'import',
  'import/repo',
  'redeploy',
  'v0-web',
]);

/**
 * The fields the provider's description requires of every single-deployment
 * answer (create, get, cancel) that the sandbox has no model for: fixed,
 * plausible values. `buildingAt` is required, so a queued deployment carries
 * its creation time; `ready` is left out until it is ready.
 */
function requiredDeploymentFields(caller: Caller, deployment: DeploymentRecord) {
  const derived = stateAt(deployment, caller.now);
  return {
    build: { env: [] },
    env: [],
    isInConcurrentBuildsQueue: false,
    isInSystemBuildsQueue: false,
    bootedAt: deployment.createdAt,
    buildSkipped: false,
    public: false,
    version: 2,
    plan: caller.scope.ownerId.startsWith('team_') ? 'pro' : 'hobby',
    createdIn: 'sfo1',
    routes: null,
    buildingAt: derived.buildingAt ?? deployment.createdAt,
  };
}

/** GET /v13/deployments/{id} shape. */
function fullDeployment(caller: Caller, deployment: DeploymentRecord) {
  const derived = stateAt(deployment, caller.now);
  return {
    ...requiredDeploymentFields(caller, deployment),
    id: deployment.id,
    name: deployment.name,
    url: deployment.url,
    projectId: deployment.projectId,
    ownerId: deployment.ownerId,
    readyState: derived.readyState,
    status: derived.readyState,
    type: 'LAMBDAS',
    target: deployment.target,
    createdAt: deployment.createdAt,
    ...definedOnly({
      source: SOURCES.has(deployment.source) ? deployment.source : undefined,
      ready: derived.ready ?? undefined,
      canceledAt: deployment.canceledAt,
      readyStateReason: deployment.blockedReason,
    }),
    creator: creatorOf(caller, deployment),
    inspectorUrl: `https://vercel.com/${caller.scope.slug}/${deployment.name}/${deployment.id.slice(4)}`,
    meta: deployment.meta,
    gitSource: deployment.gitSource,
    projectSettings: deployment.projectSettings,
    alias:
      derived.readyState === 'READY' && deployment.target === 'production'
        ? [`${deployment.name}.vercel.app`]
        : [],
    aliasAssigned: derived.readyState === 'READY',
    regions: ['iad1'],
    ...(derived.readyState === 'ERROR'
      ? { errorCode: 'BUILD_FAILED', errorMessage: 'Command "npm run build" exited with 1' }
      : {}),
  };
}

/** GET /v6/deployments item shape: `uid` and `state` instead of `id` and `readyState`, plus `created`. */
function listedDeployment(caller: Caller, deployment: DeploymentRecord) {
  const derived = stateAt(deployment, caller.now);
  return {
    uid: deployment.id,
    name: deployment.name,
    url: deployment.url,
    created: deployment.createdAt,
    createdAt: deployment.createdAt,
    buildingAt: derived.buildingAt ?? deployment.createdAt,
    ...definedOnly({
      ready: derived.ready ?? undefined,
      source: SOURCES.has(deployment.source) ? deployment.source : undefined,
    }),
    state: derived.readyState,
    readyState: derived.readyState,
    type: 'LAMBDAS',
    target: deployment.target,
    projectId: deployment.projectId,
    creator: creatorOf(caller, deployment),
    inspectorUrl: `https://vercel.com/${caller.scope.slug}/${deployment.name}/${deployment.id.slice(4)}`,
    meta: deployment.meta,
    aliasAssigned: derived.readyState === 'READY' ? derived.ready : null,
    aliasError: null,
  };
}

function listDeployments(request: DeploymentsRequest) {
  const caller = request.caller;
  const limit = intParam(request, 'limit', { min: 1, max: 100 });
  if (limit === 'invalid') return badRequest('`limit` must be an integer from 1 to 100.');
  const since = intParam(request, 'since', { min: 0, max: Number.MAX_SAFE_INTEGER });
  const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (since === 'invalid' || until === 'invalid') return badRequest('`since` and `until` are ms timestamps.');
  const states = request.query.get('state')?.split(',').filter(Boolean);
  const unknown = states?.find((state) => !(READY_STATES as readonly string[]).includes(state));
  if (unknown) return badRequest(`\`state\` has an unknown value "${unknown}".`);
  const projectRef = request.query.get('projectId');
  const project = projectRef ? caller.scope.project(projectRef) : undefined;
  if (projectRef && !project) return notFound('Project');
  const target = request.query.get('target');

  const matched = [...caller.scope.deployments.values()]
    .filter((deployment) => !project || deployment.projectId === project.id)
    .filter((deployment) => {
      if (!target) return true;
      return target === 'preview' ? deployment.target === null : deployment.target === target;
    })
    .filter((deployment) => !states || states.includes(stateAt(deployment, caller.now).readyState))
    .filter((deployment) => since === undefined || deployment.createdAt > since)
    .filter((deployment) => until === undefined || deployment.createdAt < until)
    .sort((a, b) => b.createdAt - a.createdAt);
  const { page, pagination } = timePage(matched, limit ?? 20, (deployment) => deployment.createdAt);
  return json(200, {
    deployments: page.map((deployment) => listedDeployment(caller, deployment)),
    pagination,
  });
}

/**
 * A redeploy (`deploymentId` in the body): the earlier deployment's
 * project, source, meta and settings, its target unless the body names one.
 */
function redeployBody(
  request: DeploymentsRequest,
  body: Record<string, unknown>,
): { body: Record<string, unknown> } | { problem: Reply } {
  const source = request.caller.scope.deployment(String(body.deploymentId));
  if (!source) return { problem: notFound(`Deployment "${String(body.deploymentId)}"`) };
  const redeploy = {
    name: typeof body.name === 'string' && body.name ? body.name : source.name,
    project: source.projectId,
    ...(source.gitSource ? { gitSource: source.gitSource } : { files: [] }),
    meta: source.meta,
    projectSettings: source.projectSettings,
    target: body.target === undefined ? (source.target ?? undefined) : body.target,
  };
  return { body: redeploy };
}

function createDeployment(request: DeploymentsRequest) {
  const caller = request.caller;
  const given = objectBody(request);
  if (!given) return badRequest('the body must be a JSON object.');
  const redeploy = typeof given.deploymentId === 'string' ? redeployBody(request, given) : { body: given };
  if ('problem' in redeploy) return redeploy.problem;
  const { body } = redeploy;
  if (typeof body.name !== 'string' || body.name === '')
    return badRequest('missing required property `name`.');
  if (body.files !== undefined && body.gitSource !== undefined) {
    return badRequest('`files` and `gitSource` cannot be used together.');
  }
  if (body.files === undefined && body.gitSource === undefined) {
    return badRequest('provide `gitSource` or `files`.');
  }
  const projectRef = typeof body.project === 'string' ? body.project : body.name;
  const project = caller.scope.project(projectRef);
  if (!project) return notFound(`Project "${projectRef}"`);
  if (body.target !== undefined && body.target !== null && !CREATE_TARGETS.has(String(body.target))) {
    return badRequest(
      `\`target\` "${String(body.target)}" is not an environment of this project (production, staging or a custom environment).`,
    );
  }
  let gitSource: Record<string, unknown> | null = null;
  if (body.gitSource !== undefined) {
    const source = body.gitSource as Record<string, unknown> | null;
    if (typeof source !== 'object' || source === null || !GIT_TYPES.has(String(source.type))) {
      return badRequest('`gitSource.type` must be github, gitlab or bitbucket.');
    }
    if (typeof source.ref !== 'string' || source.ref === '')
      return badRequest('`gitSource.ref` is required.');
    gitSource = { ...source };
  } else if (!Array.isArray(body.files)) {
    return badRequest('`files` must be an array.');
  }
  const meta = body.meta ?? {};
  if (
    typeof meta !== 'object' ||
    meta === null ||
    Object.values(meta).some((value) => typeof value !== 'string')
  ) {
    return badRequest('`meta` values must be strings.');
  }
  const softBlock = caller.world.teams.get(caller.scope.ownerId)?.softBlock;
  if (softBlock) return apiError(402, 'payment_required', softBlock);
  const settings = body.projectSettings ?? {};
  if (typeof settings !== 'object' || settings === null)
    return badRequest('`projectSettings` must be an object.');
  const deployment = caller.world.createDeployment(caller.scope, {
    project,
    creator: caller.user,
    target: body.target === 'preview' || body.target === undefined ? null : String(body.target),
    gitSource,
    meta: meta as Record<string, string>,
    projectSettings: settings as Record<string, unknown>,
    source: gitSource ? 'git' : 'api',
  });
  return json(200, fullDeployment(caller, deployment));
}

function cancelDeployment(request: DeploymentsRequest) {
  const caller = request.caller;
  const deployment = caller.scope.deployment(request.params.id ?? '');
  if (!deployment) return notFound('Deployment');
  const { readyState } = stateAt(deployment, caller.now);
  if (!CANCELABLE.includes(readyState)) {
    // Like the provider, the refusal does not spell out the state; clients read it.
    return apiError(400, 'bad_request', 'This deployment cannot be canceled.');
  }
  deployment.canceledAt = caller.now;
  return json(200, fullDeployment(caller, deployment));
}

/** The deployment endpoints of the spec: list, get, create, cancel, delete. */
export function deploymentRoutes(router: Router<Caller>): void {
  router
    // The current official SDK lists with v7; same answer.
    .on('GET', ['/v6/deployments', '/v7/deployments'], listDeployments)
    .on('POST', '/v13/deployments', createDeployment)
    .on('GET', '/v13/deployments/:id', (request) => {
      const caller = request.caller;
      const deployment = caller.scope.deployment(request.params.id ?? '');
      return deployment ? json(200, fullDeployment(caller, deployment)) : notFound('Deployment');
    })
    .on('DELETE', '/v13/deployments/:id', (request) => {
      const caller = request.caller;
      const deployment = caller.scope.deployment(request.params.id ?? '');
      if (!deployment) return notFound('Deployment');
      caller.scope.deployments.delete(deployment.id);
      return json(200, { uid: deployment.id, state: 'DELETED' });
    })
    .on('PATCH', '/v12/deployments/:id/cancel', cancelDeployment);
}
