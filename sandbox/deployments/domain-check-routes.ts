import type { Router } from '../router.js';
import { json, type Reply } from '../sandbox-http.js';
import type { DnsRecord } from './deployments-state.js';
import type { Caller, DeploymentsRequest } from './deployments-wire.js';
import { apiError, badRequest, notFound, projectOf } from './deployments-wire.js';
import { apexOf, DOMAIN_NAME, renderProjectDomain, verificationChallenge } from './domain-routes.js';

/** Where the provider asks a domain to point: a CNAME for a subdomain, an A record for an apex. */
export const PROVIDER_CNAME = 'cname.vercel-dns.com.';
export const PROVIDER_IPV4 = '76.76.21.21';

const VERIFY_PREFIX = 'vc-domain-verify=';

/**
 * `POST /v9/projects/{id}/domains/{domain}/verify`: checks the domain's
 * verification challenge against the sandbox's DNS (`world.dns`, which a
 * test sets with `setDns` or the twin seed's `dns_records`). The
 * description answers 200 for a domain verified now or already, and 400
 * when the domain is not the project's, has no `vc-domain-verify` TXT
 * record, or has one that does not match; it names no error codes, so
 * `domain_not_assigned`, `missing_txt_record` and `invalid_txt_record` are
 * the sandbox's own.
 */
function verifyProjectDomain(request: DeploymentsRequest): Reply {
  const { scope, world, now } = request.caller;
  const project = projectOf(request);
  if (!project) return notFound('Project');
  const name = (request.params.domain ?? '').toLowerCase();
  const record = scope.projectDomains.get(name);
  if (!record || record.projectId !== project.id) {
    return apiError(400, 'domain_not_assigned', `Project domain "${name}" is not assigned to the project.`);
  }
  if (record.verified) return json(200, renderProjectDomain(record));
  const challenge = verificationChallenge(record);
  const attempts = (world.dns.get(challenge.domain) ?? []).filter(
    (found) => found.type === 'TXT' && found.value.startsWith(VERIFY_PREFIX),
  );
  if (attempts.some((found) => found.value === challenge.value)) {
    Object.assign(record, { verified: true, updatedAt: now });
    return json(200, renderProjectDomain(record));
  }
  return attempts.length === 0
    ? apiError(
        400,
        'missing_txt_record',
        `Domain ${challenge.domain} is missing the required TXT record "${challenge.value}".`,
      )
    : apiError(
        400,
        'invalid_txt_record',
        `The TXT record on ${challenge.domain} does not match the expected challenge "${challenge.value}".`,
      );
}

/** How the domain's DNS points at the provider, if it does: `CNAME`, `A`, or null. */
function configuredBy(records: readonly DnsRecord[]): 'CNAME' | 'A' | null {
  const target = PROVIDER_CNAME.replace(/\.$/, '').split('.').slice(-2).join('.');
  if (records.some((found) => found.type === 'CNAME' && found.value.replace(/\.$/, '').endsWith(target))) {
    return 'CNAME';
  }
  return records.some((found) => found.type === 'A' && found.value === PROVIDER_IPV4) ? 'A' : null;
}

/**
 * `GET /v6/domains/{domain}/config`: how the domain's DNS points at the
 * provider, read from the sandbox's DNS, and the records to set. Any valid
 * hostname is answered, as the provider answers for domains not yet added;
 * a domain that does not point at the provider is `misconfigured` and can
 * take no certificate challenge.
 */
function domainConfig(request: DeploymentsRequest): Reply {
  const { scope, world } = request.caller;
  const name = (request.params.domain ?? '').toLowerCase();
  if (!DOMAIN_NAME.test(name)) return apiError(400, 'invalid_domain', 'The domain name is not valid.');
  const projectRef = request.query.get('projectIdOrName');
  if (projectRef !== null && !scope.project(projectRef)) return notFound('Project');
  const strict = request.query.get('strict');
  if (strict !== null && strict !== 'true' && strict !== 'false')
    return badRequest('`strict` is "true" or "false".');
  const by = configuredBy(world.dns.get(name) ?? []);
  return json(200, {
    configuredBy: by,
    acceptedChallenges: by ? ['http-01'] : [],
    recommendedIPv4: [{ rank: 1, value: [PROVIDER_IPV4] }],
    // An apex cannot hold a CNAME: it is pointed with an A record.
    recommendedCNAME: name === apexOf(name) ? [] : [{ rank: 1, value: PROVIDER_CNAME }],
    misconfigured: by === null,
  });
}

/** What reads the domain's DNS: a project domain's verification, and a domain's configuration. */
export function domainCheckRoutes(router: Router<Caller>): void {
  router
    .on('POST', '/v9/projects/:id/domains/:domain/verify', verifyProjectDomain)
    .on('GET', '/v6/domains/:domain/config', domainConfig);
}
