import * as z from 'zod';
import { builtOnce } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

/**
 * A project's git connection as the provider answers it, the fields that
 * name the repository to a person: which ones are set depends on the git
 * provider (GitHub's org and repo, GitLab's path, Bitbucket's owner and
 * slug). Create Deployment reads the ids beside them (`GitLinkIds`).
 */
export const GitLink = builtOnce(() =>
  z
    .object({
      type: z.string().optional(),
      org: z.string().optional(),
      repo: z.string().optional(),
      projectNameWithNamespace: z.string().optional(),
      owner: z.string().optional(),
      slug: z.string().optional(),
      productionBranch: z.string().optional(),
    })
    .loose(),
);

/**
 * The git link with the ids a deployment's `gitSource` can name the
 * repository by (GitHub's repoId, GitLab's projectId, Bitbucket's workspace
 * and repo UUIDs): read only where a deployment is made from it, so a
 * project listing does not fail on an id it never shows.
 */
export const GitLinkIds = builtOnce(() =>
  GitLink().extend({
    repoId: z.number().optional(),
    projectId: z.union([z.string(), z.number()]).optional(),
    workspaceUuid: z.string().optional(),
    repoUuid: z.string().optional(),
  }),
);

/** A project as the provider answers it (get, list, create, update); only what the steps show is read. */
const ProviderProject = builtOnce(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      accountId: z.string().optional(),
      framework: z.string().nullable().optional(),
      buildCommand: z.string().nullable().optional(),
      installCommand: z.string().nullable().optional(),
      outputDirectory: z.string().nullable().optional(),
      rootDirectory: z.string().nullable().optional(),
      devCommand: z.string().nullable().optional(),
      nodeVersion: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      updatedAt: z.number().optional(),
      link: GitLink().nullable().optional(),
      latestDeployments: z
        .array(
          z.object({ id: z.string(), url: z.string().nullable().optional(), readyState: z.string() }).loose(),
        )
        .nullable()
        .optional(),
    })
    .loose(),
);

const setting = (what: string) => z.string().nullable().describe(`${what}; null for the default.`);

export const Project = builtOnce(() =>
  z.object({
    id: z.string().describe('Project id (prj_...).'),
    name: z.string().describe('Project name, unique in the account.'),
    framework: z.string().nullable().describe('Framework preset, e.g. "nextjs"; null for none.'),
    node_version: z.string().nullable().describe('Node.js major version of its builds, e.g. "22.x".'),
    build_command: setting('Build command'),
    install_command: setting('Install command'),
    output_directory: setting('Build output directory'),
    root_directory: setting('App directory inside the repository'),
    dev_command: setting('Development command'),
    git_repository: z
      .object({
        type: z.string().describe('github, gitlab or bitbucket.'),
        repository: z.string().nullable().describe('"owner/name" of the repository, when the provider says.'),
        production_branch: z.string().nullable().describe('Branch that deploys to production.'),
      })
      .nullable()
      .describe('The connected git repository; null when the project is not connected to git.'),
    latest_deployment: z
      .object({
        id: z.string().describe('Deployment id (dpl_...).'),
        state: z.string().describe('Its readyState, e.g. READY or BUILDING.'),
        url: z.string().nullable().describe('Its unique hostname.'),
      })
      .nullable()
      .describe('The newest deployment, when there is one.'),
    created_at: z.string().nullable().describe('ISO 8601 creation time.'),
    updated_at: z.string().nullable().describe('ISO 8601 time of the last change.'),
  }),
);
export type Project = z.infer<ReturnType<typeof Project>>;

function repositoryOf(link: NonNullable<z.infer<ReturnType<typeof ProviderProject>>['link']>): string | null {
  if (link.org && link.repo) return `${link.org}/${link.repo}`;
  if (link.owner && link.slug) return `${link.owner}/${link.slug}`;
  return link.projectNameWithNamespace ?? null;
}

/** The provider's project in our shape; an OutputError when the answer is not a project. */
export function toProject(raw: unknown, where = 'project'): Project {
  const value = readAnswer(ProviderProject(), raw, where, 'a project');
  const latest = value.latestDeployments?.[0];
  return {
    id: value.id,
    name: value.name,
    framework: value.framework ?? null,
    node_version: value.nodeVersion ?? null,
    build_command: value.buildCommand ?? null,
    install_command: value.installCommand ?? null,
    output_directory: value.outputDirectory ?? null,
    root_directory: value.rootDirectory ?? null,
    dev_command: value.devCommand ?? null,
    git_repository: value.link
      ? {
          type: value.link.type ?? 'unknown',
          repository: repositoryOf(value.link),
          production_branch: value.link.productionBranch ?? null,
        }
      : null,
    latest_deployment: latest ? { id: latest.id, state: latest.readyState, url: latest.url ?? null } : null,
    created_at: isoTime(value.createdAt),
    updated_at: isoTime(value.updatedAt),
  };
}

/** A name for a new or renamed project: the provider's rule, lowercase. */
export const ProjectName = builtOnce(() =>
  z
    .string()
    .regex(/^[a-z0-9._-]{1,100}$/, 'lowercase letters, digits, ".", "_" and "-", up to 100 characters')
    .refine((value) => !value.includes('---'), 'no "---" (the provider reserves it)')
    .describe('Project name, e.g. "marketing-site": lowercase letters, digits, ".", "_" and "-".'),
);

/** The output of every step that answers one project. */
export const OneProject = builtOnce(() => z.object({ project: Project().describe('The project.') }));
