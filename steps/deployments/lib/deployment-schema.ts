import * as z from 'zod';
import { builtOnce, PathSegment } from '../../../src/kit/index.js';
import { isoTime, readAnswer } from './provider-answer.js';

/** The provider's `readyState` values. */
export const READY_STATES = [
  'QUEUED',
  'INITIALIZING',
  'BUILDING',
  'READY',
  'ERROR',
  'CANCELED',
  'BLOCKED',
] as const;
export const ReadyState = builtOnce(() =>
  z
    .enum(READY_STATES)
    .describe('Deployment state: QUEUED, INITIALIZING, BUILDING, READY, ERROR, CANCELED or BLOCKED.'),
);

/** Only these can be cancelled (provider rule for PATCH /v12/deployments/{id}/cancel). */
export const CANCELABLE_STATES: readonly string[] = ['QUEUED', 'INITIALIZING', 'BUILDING'];

/**
 * A project name or id. Names are lowercase letters, digits, `.`, `_`, `-`
 * (up to 100); ids look like `prj_...`. Either works wherever the provider
 * takes a project.
 */
export const ProjectRef = builtOnce(() =>
  PathSegment()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'a project name or id: letters, digits, ".", "_" and "-"')
    .describe('Project name (e.g. "web") or id (prj_...).'),
);

export const DeploymentId = builtOnce(() =>
  PathSegment()
    .regex(/^[A-Za-z0-9._-]{1,255}$/, 'a deployment id such as dpl_abc123, or its hostname')
    .describe('Deployment id (dpl_...), as returned by Create Deployment or List Deployments.'),
);

/**
 * The environments the spec names, and how each maps onto the provider's
 * `target`: production -> "production"; preview -> no target (the provider's
 * default); development -> no target as well. The provider has no remote
 * development deployments (its Development environment is the local dev
 * server's), so the closest remote equivalent is a preview deployment, which
 * never touches production.
 */
export const Environment = builtOnce(() =>
  z
    .enum(['production', 'preview', 'development'])
    .describe(
      'production, preview or development. development has no remote deployments at the provider and is deployed as a preview.',
    ),
);
export type Environment = z.infer<ReturnType<typeof Environment>>;

/** The `target` a create sends; undefined means "omit it". */
export function targetForCreate(environment: Environment): 'production' | undefined {
  return environment === 'production' ? 'production' : undefined;
}

/** The `target` list filter: preview and development deployments are both the provider's previews. */
export function targetForList(environment: Environment): 'production' | 'preview' {
  return environment === 'production' ? 'production' : 'preview';
}

/** What the provider sends, in either its list (v6) or single-deployment (v13) form. */
export const ProviderDeployment = builtOnce(() =>
  z
    .object({
      id: z.string().optional(),
      uid: z.string().optional(),
      name: z.string(),
      url: z.string().nullable().optional(),
      projectId: z.string().nullable().optional(),
      readyState: z.string().optional(),
      state: z.string().optional(),
      target: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      created: z.number().optional(),
      buildingAt: z.number().nullable().optional(),
      ready: z.number().nullable().optional(),
      inspectorUrl: z.string().nullable().optional(),
      errorMessage: z.string().nullable().optional(),
      meta: z.record(z.string(), z.unknown()).nullable().optional(),
      // The provider's description makes `ref` nullable on every kind of git source.
      gitSource: z
        .object({ ref: z.string().nullable().optional(), sha: z.string().nullable().optional() })
        .loose()
        .nullable()
        .optional(),
    })
    .loose()
    .refine((value) => Boolean(value.id ?? value.uid), { message: 'a deployment needs an id or uid' })
    .refine((value) => Boolean(value.readyState ?? value.state), { message: 'a deployment needs a state' })
    .refine((value) => (value.createdAt ?? value.created) !== undefined, {
      message: 'a deployment needs its creation time',
    }),
);
export type ProviderDeployment = z.infer<ReturnType<typeof ProviderDeployment>>;

const isoOrNull = builtOnce(() => z.string().nullable());

export const Deployment = builtOnce(() =>
  z.object({
    id: z.string().describe('Deployment id (dpl_...).'),
    name: z.string().describe('Deployment name: the project name.'),
    url: z.string().nullable().describe('Unique hostname of the deployment, without https://.'),
    project_id: z.string().nullable().describe('Id of the project (prj_...).'),
    state: z
      .string()
      .describe('readyState: QUEUED, INITIALIZING, BUILDING, READY, ERROR, CANCELED or BLOCKED.'),
    environment: z
      .string()
      .describe('production, preview, or the slug of a custom environment (from the provider target).'),
    target: z
      .string()
      .nullable()
      .describe('Provider target: production, a custom environment, or null (preview).'),
    branch: z.string().nullable().describe('Git branch the deployment was built from, when known.'),
    commit_sha: z.string().nullable().describe('Git commit the deployment was built from, when known.'),
    created_at: z.string().describe('ISO 8601 creation time.'),
    building_at: isoOrNull().describe('ISO 8601 time the build started, when it has.'),
    ready_at: isoOrNull().describe('ISO 8601 time the deployment became ready, when it has.'),
    inspector_url: z.string().nullable().describe('Provider dashboard page of the deployment.'),
    error_message: z.string().nullable().describe('Why the build failed, for ERROR deployments.'),
  }),
);
export type Deployment = z.infer<ReturnType<typeof Deployment>>;

function metaString(meta: Record<string, unknown> | null | undefined, keys: string[]): string | null {
  for (const key of keys) {
    const value = meta?.[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** States before a build starts. */
const WAITING_STATES = new Set(['QUEUED', 'INITIALIZING']);

/** The provider's deployment in our snake_case shape; an OutputError when the answer is not a deployment. */
export function toDeployment(raw: unknown, where = 'deployment'): Deployment {
  const value = readAnswer(ProviderDeployment(), raw, where, 'a deployment');
  const target = value.target ?? null;
  const state = (value.readyState ?? value.state) as string;
  return {
    id: (value.id ?? value.uid) as string,
    name: value.name,
    url: value.url ?? null,
    project_id: value.projectId ?? null,
    state,
    environment: target ?? 'preview',
    target,
    branch:
      value.gitSource?.ref ??
      metaString(value.meta, ['githubCommitRef', 'gitlabCommitRef', 'bitbucketCommitRef', 'branch']),
    commit_sha:
      value.gitSource?.sha ??
      metaString(value.meta, ['githubCommitSha', 'gitlabCommitSha', 'bitbucketCommitSha']),
    created_at: isoTime(value.createdAt ?? value.created) as string,
    // The provider's description requires buildingAt on every deployment, a queued one too,
    // so it says when a build started only once the deployment is past waiting.
    building_at: WAITING_STATES.has(state) ? null : isoTime(value.buildingAt),
    ready_at: isoTime(value.ready),
    inspector_url: value.inspectorUrl ?? null,
    error_message: value.errorMessage ?? null,
  };
}
