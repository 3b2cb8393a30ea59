import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import { type AliasRecord, newId, stateAt } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, intParam, notFound, timePage } from './deployments-wire.js';

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An alias as `GET /v4/aliases` answers it: every field the SDK's schema requires, `created` as ISO 8601. */
function renderAlias(record: AliasRecord, caller: Caller) {
  const creator = [...caller.world.users.values()].find((user) => user.id === record.creatorId);
  return {
    uid: record.uid,
    alias: record.alias,
    created: new Date(record.createdAt).toISOString(),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    deploymentId: record.deploymentId,
    projectId: record.projectId,
    creator: { uid: record.creatorId, email: creator?.email ?? '', username: creator?.username ?? '' },
  };
}

function aliasOf(request: DeploymentsRequest, key: string): AliasRecord | undefined {
  const { aliases } = request.caller.scope;
  const wanted = (request.params[key] ?? '').toLowerCase();
  return aliases.get(wanted) ?? [...aliases.values()].find((alias) => alias.uid === request.params[key]);
}

/** `GET /v4/aliases`: newest first, `projectId` (id or name) narrows, time-paged with `until`. */
function listAliases(request: DeploymentsRequest): Reply {
  const { scope } = request.caller;
  const limit = intParam(request, 'limit', { min: 1, max: 100 });
  const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (limit === 'invalid' || until === 'invalid')
    return badRequest('`limit` is 1 to 100; `until` a ms timestamp.');
  const projectRef = request.query.get('projectId');
  const project = projectRef === null ? undefined : scope.project(projectRef);
  if (projectRef !== null && !project) return notFound('Project');
  const aliases = [...scope.aliases.values()]
    .filter((alias) => !project || alias.projectId === project.id)
    .filter((alias) => until === undefined || alias.createdAt < until)
    .sort((a, b) => b.createdAt - a.createdAt);
  const { page, pagination } = timePage(aliases, limit ?? 20, (alias) => alias.createdAt);
  return json(200, { aliases: page.map((alias) => renderAlias(alias, request.caller)), pagination });
}

/**
 * `POST /v2/deployments/{id}/aliases` `{alias}`: points the hostname at the
 * deployment; an alias the owner already has moves (its uid stays, the old
 * deployment is answered as `oldDeploymentId`), so sending it twice is one change.
 */
function assignAlias(request: DeploymentsRequest): Reply {
  const { scope, now, user } = request.caller;
  const deployment = scope.deployment(request.params.id ?? '');
  if (!deployment) return notFound('Deployment');
  const alias = objectBody(request)?.alias;
  const name = typeof alias === 'string' ? alias.toLowerCase() : '';
  if (!HOSTNAME.test(name)) return apiError(400, 'invalid_alias', 'The alias must be a hostname.');
  const existing = scope.aliases.get(name);
  const record: AliasRecord = existing ?? {
    uid: newId('alias'),
    alias: name,
    deploymentId: deployment.id,
    projectId: deployment.projectId,
    creatorId: user.id,
    createdAt: now,
    updatedAt: now,
  };
  const oldDeploymentId = existing && existing.deploymentId !== deployment.id ? existing.deploymentId : null;
  Object.assign(record, { deploymentId: deployment.id, projectId: deployment.projectId, updatedAt: now });
  scope.aliases.set(name, record);
  return json(200, {
    uid: record.uid,
    alias: name,
    created: new Date(record.createdAt).toISOString(),
    oldDeploymentId,
  });
}

/** Aliases: list, one by id or hostname, assign to a deployment, delete. */
export function aliasRoutes(router: Router<Caller>): void {
  router
    .on('GET', '/v4/aliases', listAliases)
    .on('GET', '/v4/aliases/:idOrAlias', (request) => {
      const alias = aliasOf(request, 'idOrAlias');
      return alias ? json(200, renderAlias(alias, request.caller)) : notFound('Alias');
    })
    .on('POST', '/v2/deployments/:id/aliases', assignAlias)
    .on('DELETE', '/v2/aliases/:aliasId', (request) => {
      const alias = aliasOf(request, 'aliasId');
      if (!alias) return notFound('Alias');
      request.caller.scope.aliases.delete(alias.alias);
      return json(200, { status: 'SUCCESS' });
    });
}

/**
 * Promote (`POST /v10/projects/{id}/promote/{deploymentId}`) and roll back
 * (`POST /v1/projects/{id}/rollback/{deploymentId}`): the project's aliases
 * move to a READY deployment of the project; a rollback only to an earlier
 * production one. 201, no body. A promotion that moves production is
 * announced as `deployment.promoted` (to production); the provider's
 * webhook docs say that event "does not include rollbacks", and its
 * description lists no rollback event, so a rollback announces nothing. A
 * promotion to the deployment already serving every alias moves nothing and
 * announces nothing, so a replayed promote is one event.
 */
function moveProduction(kind: 'promote' | 'rollback') {
  return (request: DeploymentsRequest): Reply => {
    const { scope, now, world } = request.caller;
    const project = scope.project(request.params.id ?? '');
    if (!project) return notFound('Project');
    const deployment = scope.deployment(request.params.deploymentId ?? '');
    if (!deployment || deployment.projectId !== project.id) return notFound('Deployment of this project');
    if (stateAt(deployment, now).readyState !== 'READY')
      return apiError(400, 'deployment_not_ready', 'Only a READY deployment can serve production.');
    if (kind === 'rollback' && deployment.target !== 'production')
      return apiError(400, 'not_production', 'Roll back only to an earlier production deployment.');
    const aliases = [...scope.aliases.values()].filter((alias) => alias.projectId === project.id);
    const moves = aliases.length === 0 || aliases.some((alias) => alias.deploymentId !== deployment.id);
    for (const alias of aliases) Object.assign(alias, { deploymentId: deployment.id, updatedAt: now });
    if (kind === 'promote' && moves) {
      world.outbox.push({ type: 'deployment.promoted', deploymentId: deployment.id, target: 'production' });
    }
    return { status: 201 };
  };
}

/** Promote and roll back. */
export function productionRoutes(router: Router<Caller>): void {
  router
    .on('POST', '/v10/projects/:id/promote/:deploymentId', moveProduction('promote'))
    .on('POST', '/v1/projects/:id/rollback/:deploymentId', moveProduction('rollback'));
}
