import * as z from 'zod';
import type { Constraints, EventFacts } from '../../../../src/kit/index.js';
import { builtOnce } from '../../../../src/kit/index.js';
import { allowedProjects } from '../../lib/project-scope.js';

const Deployment = builtOnce(() =>
  z
    .object({
      id: z.string().min(1).max(128).describe('Deployment id (dpl_...).'),
      url: z.string().nullish().describe('Host the deployment is served at.'),
      name: z.string().nullish().describe('Deployment name (usually the project name).'),
      inspectorUrl: z.string().nullish(),
      meta: z.record(z.string(), z.unknown()).nullish().describe('Git and other metadata.'),
      errorMessage: z.string().nullish().describe('Why the build failed, when the provider says.'),
    })
    .loose(),
);

/**
 * The envelope of every deployment webhook delivery:
 * `{type, id, createdAt, region, payload}` (provider facts, "Webhooks").
 */
export function deploymentEventSchema(type: string) {
  return z
    .object({
      type: z.literal(type).describe('The provider event type.'),
      id: z.string().min(1).max(200).describe('Event id: the same on every retry of this event.'),
      createdAt: z.number().int().nonnegative().describe('When the event happened (epoch ms).'),
      region: z.string().nullish(),
      payload: z
        .object({
          deployment: Deployment(),
          project: z.object({ id: z.string().min(1).describe('Project id (prj_...).') }).loose(),
          target: z
            .string()
            .nullish()
            .describe('production, staging, a custom environment, or null for preview.'),
          team: z.object({ id: z.string().nullish() }).loose().nullish(),
          user: z.object({ id: z.string().nullish() }).loose().nullish(),
          links: z
            .object({ deployment: z.string().nullish(), project: z.string().nullish() })
            .loose()
            .nullish(),
        })
        .loose(),
    })
    .loose();
}

export interface DeploymentEventEnvelope {
  id: string;
  createdAt: number;
  payload: { project: { id: string }; target?: string | null | undefined };
}

export function deploymentEventFacts(event: DeploymentEventEnvelope): EventFacts {
  return { eventId: event.id, occurredAt: new Date(event.createdAt).toISOString() };
}

/** What every deployment trigger maps by default (spec: id, url, project, target, state, error). */
export const deploymentVariables = {
  deployment_id: '$.payload.deployment.id',
  url: '$.payload.deployment.url',
  project: '$.payload.project.id',
  name: '$.payload.deployment.name',
  target: '$.payload.target',
  state: '$.type',
} as const;

export const DeploymentSetup = builtOnce(() =>
  z
    .object({
      targets: z
        .array(z.string().min(1).max(64))
        .min(1)
        .optional()
        .describe(
          'Only deployments to these targets (production, staging, preview...); omit for every target.',
        ),
    })
    .strict(),
);

/**
 * Project scoping (the `projects` constraint: project ids) is enforced here
 * even though the provider webhook was created with the same `projectIds`:
 * a webhook edited at the provider must not widen what starts an agent.
 */
export function deploymentSkipReason(
  event: DeploymentEventEnvelope,
  setup: z.output<ReturnType<typeof DeploymentSetup>>,
  constraints: Constraints,
): string | undefined {
  const projects = allowedProjects(constraints);
  if (projects && !projects.includes(event.payload.project.id)) {
    return `project ${event.payload.project.id} is outside the subscription's projects`;
  }
  const target = event.payload.target ?? 'preview';
  if (setup.targets && !setup.targets.includes(target)) {
    return `target ${target} is not one of ${setup.targets.join(', ')}`;
  }
  return undefined;
}

/**
 * An example delivery of `type` (provider facts, "Webhooks": `{type, id,
 * createdAt, region, payload}`), for `describe` and `triggers test`.
 */
export function deploymentEventExample(type: string) {
  return (facts: EventFacts) => ({
    type,
    id: facts.eventId,
    createdAt: Date.parse(facts.occurredAt),
    region: 'syd1',
    payload: {
      team: { id: 'team_acme' },
      user: { id: 'user_ada' },
      deployment: {
        id: 'dpl_7Hx2Lq',
        url: 'shop-7hx2lq.vercel.app',
        name: 'shop',
        meta: { githubCommitRef: 'main' },
        ...(type === 'deployment.error' ? { errorMessage: 'Command "npm run build" exited with 1' } : {}),
      },
      project: { id: 'prj_shop' },
      target: 'production',
      links: {
        deployment: 'https://vercel.com/acme/shop/dpl_7Hx2Lq',
        project: 'https://vercel.com/acme/shop',
      },
    },
  });
}
