/**
 * Every provider path of the integration, in one table, so it can be
 * re-pointed. Each path carries its own version prefix (spec: v2 to v13).
 */
export const deploymentsPaths = {
  listDeployments: '/v6/deployments',
  deployment: '/v13/deployments/{id}',
  createDeployment: '/v13/deployments',
  cancelDeployment: '/v12/deployments/{id}/cancel',
  deleteDeployment: '/v13/deployments/{id}',
  projects: '/v9/projects',
  project: '/v9/projects/{id}',
  createProject: '/v10/projects',
  domains: '/v5/domains',
  domain: '/v5/domains/{domain}',
  addProjectDomain: '/v10/projects/{id}/domains',
  projectDomain: '/v9/projects/{id}/domains/{domain}',
  projectEnv: '/v9/projects/{id}/env',
  createProjectEnv: '/v10/projects/{id}/env',
  projectEnvVar: '/v9/projects/{id}/env/{envId}',
  user: '/v2/user',
  teams: '/v2/teams',
  team: '/v2/teams/{id}',
  teamMembers: '/v2/teams/{id}/members',
  oauthToken: '/v2/oauth/access_token',
  oauthRefresh: '/login/oauth/token',
  oauthAuthorize: '/oauth/authorize',
} as const;

/** Fills a path's placeholders; every value is percent-encoded, so an id can never add a segment. */
export function deploymentsPath(
  name: keyof typeof deploymentsPaths,
  params: { id?: string; domain?: string; envId?: string } = {},
): string {
  return deploymentsPaths[name].replace(/\{(id|domain|envId)\}/g, (_, key: 'id' | 'domain' | 'envId') =>
    encodeURIComponent(params[key] ?? ''),
  );
}
