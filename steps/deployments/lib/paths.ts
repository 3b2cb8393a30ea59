/**
 * Every provider path of the integration, in one table, so it can be
 * re-pointed. Each path carries its own version prefix (spec: v2 to v13).
 * Where the provider's own description (the one its SDK is generated from)
 * names a newer version than the spec's table (the project list v10, create
 * v11, the variable list v10, team members v3), the steps call the newer
 * one, as the official client does; the sandbox answers both.
 */
export const deploymentsPaths = {
  listDeployments: '/v6/deployments',
  deployment: '/v13/deployments/{id}',
  deploymentEvents: '/v3/deployments/{id}/events',
  createDeployment: '/v13/deployments',
  cancelDeployment: '/v12/deployments/{id}/cancel',
  deleteDeployment: '/v13/deployments/{id}',
  projects: '/v10/projects',
  project: '/v9/projects/{id}',
  createProject: '/v11/projects',
  aliases: '/v4/aliases',
  alias: '/v4/aliases/{id}',
  deploymentAliases: '/v2/deployments/{id}/aliases',
  deleteAlias: '/v2/aliases/{id}',
  promote: '/v10/projects/{id}/promote/{deploymentId}',
  rollback: '/v1/projects/{id}/rollback/{deploymentId}',
  domains: '/v5/domains',
  domain: '/v5/domains/{domain}',
  projectDomains: '/v9/projects/{id}/domains',
  addProjectDomain: '/v10/projects/{id}/domains',
  projectDomain: '/v9/projects/{id}/domains/{domain}',
  verifyProjectDomain: '/v9/projects/{id}/domains/{domain}/verify',
  domainConfig: '/v6/domains/{domain}/config',
  projectEnv: '/v10/projects/{id}/env',
  createProjectEnv: '/v10/projects/{id}/env',
  projectEnvVar: '/v9/projects/{id}/env/{envId}',
  user: '/v2/user',
  teams: '/v2/teams',
  team: '/v2/teams/{id}',
  teamMembers: '/v3/teams/{id}/members',
  oauthToken: '/v2/oauth/access_token',
  oauthRefresh: '/login/oauth/token',
  oauthRevoke: '/login/oauth/token/revoke',
  oauthAuthorize: '/oauth/authorize',
} as const;

export type DeploymentsPathName = keyof typeof deploymentsPaths;

/** The placeholders a path may hold. */
export interface PathParams {
  id?: string;
  domain?: string;
  envId?: string;
  deploymentId?: string;
}

/** Fills a path's placeholders; every value is percent-encoded, so an id can never add a segment. */
export function deploymentsPath(name: DeploymentsPathName, params: PathParams = {}): string {
  return deploymentsPaths[name].replace(/\{(id|domain|envId|deploymentId)\}/g, (_, key: keyof PathParams) =>
    encodeURIComponent(params[key] ?? ''),
  );
}
