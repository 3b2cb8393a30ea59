import type { Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import type { DomainRecord, ProjectDomainRecord } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, intParam, notFound, projectOf, timePage } from './deployments-wire.js';

export const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The registrable domain, as the sandbox reckons it: the last two labels. */
export function apexOf(domain: string): string {
  return domain.split('.').slice(-2).join('.');
}

function addProjectDomain(request: DeploymentsRequest): Reply {
  const caller = request.caller;
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
  return json(200, renderProjectDomain(record));
}

/**
 * The TXT record that verifies a project domain: at `_vercel.<apex>`, with
 * the provider's `vc-domain-verify=<domain>,<code>` form (the code is fixed
 * per domain in the sandbox, so a test can write it from the domain alone).
 */
export function verificationChallenge(record: Pick<ProjectDomainRecord, 'name' | 'apexName'>) {
  return {
    type: 'TXT',
    domain: `_vercel.${record.apexName}`,
    value: `vc-domain-verify=${record.name},sandbox`,
  };
}

/** A project domain as the provider answers it: the verification challenge while unverified. */
export function renderProjectDomain(record: ProjectDomainRecord) {
  return {
    ...record,
    ...(record.verified
      ? {}
      : {
          verification: [{ ...verificationChallenge(record), reason: 'pending_domain_verification' }],
        }),
  };
}

function listProjectDomains(request: DeploymentsRequest): Reply {
  const { scope } = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const limit = intParam(request, 'limit', { min: 1, max: 100 });
  const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
  if (limit === 'invalid' || until === 'invalid')
    return badRequest('`limit` is 1 to 100; `until` a ms timestamp.');
  const verified = request.query.get('verified');
  const domains = [...scope.projectDomains.values()]
    .filter((domain) => domain.projectId === project.id)
    .filter((domain) => verified === null || String(domain.verified) === verified)
    .filter((domain) => until === undefined || domain.createdAt < until)
    .sort((a, b) => b.createdAt - a.createdAt);
  const { page, pagination } = timePage(domains, limit ?? 20, (domain) => domain.createdAt);
  return json(200, { domains: page.map(renderProjectDomain), pagination });
}

function removeProjectDomain(request: DeploymentsRequest): Reply {
  const { scope } = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const name = (request.params.domain ?? '').toLowerCase();
  const record = scope.projectDomains.get(name);
  if (!record || record.projectId !== project.id) return notFound(`Domain "${name}" of this project`);
  scope.projectDomains.delete(name);
  return json(200, {});
}

/**
 * An account domain as the provider answers it: every field the SDK's own
 * schema requires (`echMode`, `suffix`, `teamId` null for a personal
 * domain, `userId` always, the creator's username and email).
 */
function renderDomain(domain: DomainRecord, world: Caller['world']) {
  const creator = [...world.users.values()].find((user) => user.id === domain.creatorId);
  return {
    id: domain.id,
    name: domain.name,
    serviceType: 'external',
    verified: domain.verified,
    nameservers: ['ns1.registrar.example', 'ns2.registrar.example'],
    intendedNameservers: ['ns1.vercel-dns.com', 'ns2.vercel-dns.com'],
    customNameservers: [],
    echMode: 'auto',
    suffix: false,
    renew: false,
    createdAt: domain.createdAt,
    expiresAt: null,
    boughtAt: null,
    transferredAt: null,
    creator: { id: domain.creatorId, username: creator?.username ?? '', email: creator?.email ?? '' },
    teamId: domain.ownerId.startsWith('team_') ? domain.ownerId : null,
    userId: domain.creatorId,
  };
}

/** Domains on a project (add, remove) and the account's domains (list, get). */
export function domainRoutes(router: Router<Caller>): void {
  router
    .on('POST', '/v10/projects/:id/domains', addProjectDomain)
    .on('GET', '/v9/projects/:id/domains', listProjectDomains)
    .on('GET', '/v9/projects/:id/domains/:domain', (request) => {
      const project = projectOf(request);
      const name = (request.params.domain ?? '').toLowerCase();
      const record = request.caller.scope.projectDomains.get(name);
      return project && record?.projectId === project.id
        ? json(200, renderProjectDomain(record))
        : notFound(`Domain "${name}" of this project`);
    })
    .on('DELETE', '/v9/projects/:id/domains/:domain', removeProjectDomain)
    .on('GET', '/v5/domains', (request) => {
      const { scope } = request.caller;
      const limit = intParam(request, 'limit', { min: 1, max: 100 });
      if (limit === 'invalid') return badRequest('`limit` must be an integer from 1 to 100.');
      const until = intParam(request, 'until', { min: 0, max: Number.MAX_SAFE_INTEGER });
      if (until === 'invalid') return badRequest('`until` must be a ms timestamp.');
      const domains = [...scope.domains.values()]
        .filter((domain) => until === undefined || domain.createdAt < until)
        .sort((a, b) => b.createdAt - a.createdAt);
      const { page, pagination } = timePage(domains, limit ?? 20, (domain) => domain.createdAt);
      return json(200, {
        domains: page.map((domain) => renderDomain(domain, request.caller.world)),
        pagination,
      });
    })
    .on('GET', '/v5/domains/:domain', (request) => {
      const domain = request.caller.scope.domains.get((request.params.domain ?? '').toLowerCase());
      return domain ? json(200, { domain: renderDomain(domain, request.caller.world) }) : notFound('Domain');
    });
}
