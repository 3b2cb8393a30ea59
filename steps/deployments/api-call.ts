import {
  defineApiCallStep,
  defineStep,
  type HttpClient,
  PermissionError,
  type StepContext,
  withoutSchemas,
} from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  allowedProjects,
  fetchDeployment,
  requireDeploymentInScope,
  requireProjectInScope,
} from './lib/project-scope.js';

const generic = defineApiCallStep(deployments, {
  pathField: 'path',
  customHeaders: true,
  title: 'Deployments API Call',
  keywords: [
    'api',
    'request',
    'custom',
    'endpoint',
    'projects',
    'domains',
    'env',
    'environment variables',
    'teams',
  ],
  examplePath: '/v9/projects',
});

function unprovable(method: string, path: string, allowed: readonly string[]): PermissionError {
  return new PermissionError(
    `${method} ${path} cannot be shown to stay inside the projects this step may touch (${allowed.join(', ') || 'none'}). With project scoping, the API Call step reaches only /v*/projects/{project}/..., deployment paths of those projects, and GET /v6/deployments?projectId={project}. Nothing was sent.`,
    { sent: false, context: { method, path, allowedProjects: [...allowed] } },
  );
}

function bodyString(body: unknown, key: string): string | undefined {
  const value =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * With `constraints.projects` set, a raw call must be provably about one of
 * those projects; anything account-wide (teams, domains, the project list)
 * is refused before sending. Deployment paths name no project, so the
 * deployment is read first and nothing that changes state is sent for a
 * deployment outside the set.
 */
async function requireCallInScope(
  http: HttpClient,
  method: string,
  path: string,
  body: unknown,
  allowed: readonly string[],
): Promise<void> {
  const url = new URL(path, 'http://scope.invalid');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [version, area, resource] = segments;
  const where = url.pathname;
  if (!version || !/^v\d+$/.test(version)) throw unprovable(method, where, allowed);
  if (area === 'projects' && resource !== undefined) {
    requireProjectInScope(resource, allowed, `${method} ${where}`);
    return;
  }
  if (area === 'projects' && method === 'POST') {
    requireProjectInScope(bodyString(body, 'name'), allowed, `${method} ${where}`);
    return;
  }
  if (area === 'deployments' && resource === undefined) {
    if (method === 'POST') {
      // `project` overrides `name` at the provider, so it is the one that decides.
      requireProjectInScope(
        bodyString(body, 'project') ?? bodyString(body, 'name'),
        allowed,
        `${method} ${where}`,
      );
      return;
    }
    // Every filter value is checked: a repeated parameter must not smuggle a second project in.
    const named = [
      ...url.searchParams.getAll('projectId'),
      ...url.searchParams.getAll('projectIds').flatMap((list) => list.split(',')),
    ];
    if (method !== 'GET' || named.length === 0) throw unprovable(method, where, allowed);
    for (const project of named) requireProjectInScope(project, allowed, `${method} ${where}`);
    return;
  }
  if (area === 'deployments' && resource !== undefined) {
    const deployment = await fetchDeployment(http, resource);
    await requireDeploymentInScope(http, deployment, allowed, `${method} ${where}`);
    return;
  }
  throw unprovable(method, where, allowed);
}

/** Query parameters that choose the account a call acts on; only the connection may choose it. */
const ACCOUNT_PARAMETERS = ['teamid', 'slug'];

/**
 * Every endpoint takes `teamId` or `slug` to act in a team (provider facts).
 * The connection's team is added to every call, but without one a path's
 * `?teamId=` or `?slug=` would move the call into another team the token can
 * reach, outside the account the connection names and any project scoping.
 * Checked on the decoded parameter names, in any letter case.
 */
function accountParameterIssue(path: string): string | undefined {
  let names: string[];
  try {
    names = [...new URL(path, 'http://scope.invalid').searchParams.keys()];
  } catch {
    return undefined;
  }
  const named = names.find((name) => ACCOUNT_PARAMETERS.includes(name.trim().toLowerCase()));
  return named === undefined
    ? undefined
    : `the "${named}" query parameter is not allowed: the connection decides which team a call acts on (set teamId on the connection)`;
}

/** D's API Call step: the generic one, plus the connection's team and project scoping. */
export default defineStep({
  ...withoutSchemas(generic),
  get output() {
    return generic.output;
  },
  agentDescription: `${generic.agentDescription} Do not put teamId or slug in the path: calls always act in the connection's team (or personal account), and such a path is refused.`,
  get input() {
    return generic.input.superRefine((value, context) => {
      const path = (value as { path?: unknown }).path;
      const issue = typeof path === 'string' ? accountParameterIssue(path) : undefined;
      if (issue) context.addIssue({ code: 'custom', path: ['path'], message: issue });
    });
  },
  examples: [{ title: "The team's projects", input: { method: 'GET', path: '/v9/projects' } }],
  async run(input, context: StepContext) {
    const allowed = allowedProjects(context.constraints);
    if (allowed) {
      const record = input as { method: string; path: string; body?: unknown };
      await requireCallInScope(context.http, record.method, record.path, record.body, allowed);
    }
    return generic.run(input, context);
  },
});
