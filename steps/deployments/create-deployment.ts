import * as z from 'zod';
import { builtOnce, definedOnly, defineStep, type HttpClient, ProviderError } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import {
  Deployment,
  Environment,
  ProjectRef,
  targetForCreate,
  toDeployment,
} from './lib/deployment-schema.js';
import { environmentOptions, projectOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { GitLinkIds } from './lib/project-schema.js';
import { allowedProjects, requireProjectInScope } from './lib/project-scope.js';
import { BuildSettings, toProviderSettings } from './lib/project-settings.js';

const GitRef = builtOnce(() =>
  z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^\s~^:?*[\\]+$/, 'a git branch name')
    .refine((value) => !value.includes('..') && !value.startsWith('-'), 'a git branch name'),
);

const Configuration = builtOnce(() =>
  BuildSettings().describe('Build settings for this deployment only; they override the project settings.'),
);

/** The project's git connection as the provider reports it. */
const ProjectLink = builtOnce(() =>
  z.object({ id: z.string(), name: z.string(), link: GitLinkIds().nullable().optional() }).loose(),
);

/**
 * The `gitSource` for a project's own repository. A project linked to git
 * is deployed from a ref of that repository; which fields name the
 * repository depends on the git provider.
 */
async function gitSourceFromProject(
  http: HttpClient,
  project: string,
  branch: string | undefined,
  sha: string | undefined,
): Promise<{ name: string; gitSource: Record<string, unknown> }> {
  const response = await http.request({ method: 'GET', path: deploymentsPath('project', { id: project }) });
  const parsed = ProjectLink().safeParse(response.body);
  const link = parsed.success ? parsed.data.link : undefined;
  const unusable = (reason: string) =>
    new ProviderError(
      `Project "${project}" ${reason}; pass repository ("owner/name" on GitHub) to deploy from a repository.`,
      { code: 'invalid_state', sent: true, context: { project } },
    );
  if (!parsed.success || !link?.type) throw unusable('is not connected to a git repository');
  const ref = branch ?? link.productionBranch;
  if (!ref) throw unusable('has no production branch; pass branch');
  const common = definedOnly({ ref, sha: sha || undefined });
  const name = parsed.data.name;
  if (link.type === 'github' && link.repoId !== undefined)
    return { name, gitSource: { type: 'github', repoId: link.repoId, ...common } };
  if (link.type === 'github' && link.org && link.repo)
    return { name, gitSource: { type: 'github', org: link.org, repo: link.repo, ...common } };
  if (link.type === 'gitlab' && link.projectId !== undefined)
    return { name, gitSource: { type: 'gitlab', projectId: link.projectId, ...common } };
  if (link.type === 'bitbucket' && link.workspaceUuid && link.repoUuid) {
    return {
      name,
      gitSource: { type: 'bitbucket', workspaceUuid: link.workspaceUuid, repoUuid: link.repoUuid, ...common },
    };
  }
  if (link.type === 'bitbucket' && link.owner && link.slug)
    return { name, gitSource: { type: 'bitbucket', owner: link.owner, slug: link.slug, ...common } };
  throw unusable(`is linked to a ${link.type} repository this step cannot address`);
}

export default defineStep({
  id: 'deployments.create_deployment',
  integration: deployments,
  title: 'Create Deployment',
  description:
    'Deploy a project from a git branch to production or as a preview, with optional build settings for this deployment.',
  agentDescription:
    'Starts a new deployment of a project from a git branch; it is QUEUED, then BUILDING, then READY or ERROR. environment: production deploys to the live site (only when the user asked for production); preview (the default) and development create a preview deployment with its own URL. Not idempotent and never retried after a failure that may have reached the provider: if the error says the outcome is unknown, call List Deployments for the project before creating again, or you may deploy twice. Use Cancel Deployment to stop one.',
  keywords: ['deploy', 'new deployment', 'release', 'ship', 'build', 'publish', 'redeploy', 'create'],
  get input() {
    return z
      .strictObject({
        project: ProjectRef(),
        branch: GitRef()
          .optional()
          .describe(
            "Git branch to deploy. Defaults to the project's production branch when the project is connected to git.",
          ),
        commit_sha: z
          .string()
          .regex(/^[0-9a-f]{7,40}$/i, 'a git commit sha')
          .optional()
          .describe('Deploy this commit of the branch instead of its latest one.'),
        repository: z
          .string()
          .regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'a GitHub repository as "owner/name"')
          .optional()
          .describe(
            'GitHub repository as "owner/name", when it is not the project\'s own connected repository. Needs branch.',
          ),
        environment: Environment().default('preview'),
        configuration: Configuration().optional(),
        meta: z
          .record(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'letters, digits, _ and -'), z.string().max(256))
          .optional()
          .refine((value) => !value || Object.keys(value).length <= 100, 'at most 100 entries')
          .describe('Free key/value labels stored on the deployment (strings).'),
      })
      .refine((value) => !value.repository || value.branch, {
        path: ['branch'],
        message: 'branch is required when repository is given',
      });
  },
  get output() {
    return z.object({ deployment: Deployment().describe('The deployment as created, usually QUEUED.') });
  },
  options: { project: projectOptions, environment: environmentOptions },
  access: 'write',
  idempotent: false,
  // POST without an idempotency handle: never replayed once it may have arrived. What to check first:
  replay: {
    mode: 'refuse',
    hint: (input) =>
      `The deployment may or may not have been created. List Deployments for project "${input.project}" before creating it again.`,
  },
  variables: { deployment_id: '$.deployment.id', url: '$.deployment.url', state: '$.deployment.state' },
  examples: [{ title: "A preview of the shop's main branch", input: { project: 'shop', branch: 'main' } }],
  async run(input, { http, constraints }) {
    requireProjectInScope(input.project, allowedProjects(constraints), 'Creating a deployment');
    let name = input.project;
    let gitSource: Record<string, unknown>;
    if (input.repository) {
      const [org, repo] = input.repository.split('/') as [string, string];
      gitSource = {
        type: 'github',
        org,
        repo,
        ref: input.branch,
        ...definedOnly({ sha: input.commit_sha || undefined }),
      };
    } else {
      ({ name, gitSource } = await gitSourceFromProject(http, input.project, input.branch, input.commit_sha));
    }
    const target = targetForCreate(input.environment);
    const projectSettings = toProviderSettings(input.configuration);
    const body = {
      name,
      project: input.project,
      target: target || undefined,
      gitSource,
      // Empty settings or metadata are not sent: the provider would store an empty object.
      projectSettings: Object.keys(projectSettings).length ? projectSettings : undefined,
      meta: input.meta && Object.keys(input.meta).length ? input.meta : undefined,
    };
    // POST without an idempotency handle: the transport never replays it once it may have arrived.
    const response = await http.request({
      method: 'POST',
      path: deploymentsPath('createDeployment'),
      body: definedOnly(body),
    });
    return { deployment: toDeployment(response.body) };
  },
});
