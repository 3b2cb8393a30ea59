import * as z from 'zod';
import { builtOnce, PathSegment, type StepContext } from '../../../src/kit/index.js';
import { deploymentsPath } from './paths.js';
import { deploymentInScope } from './project-request.js';
import { isoTime, readAnswer } from './provider-answer.js';

export const AliasRef = builtOnce(() =>
  PathSegment()
    .max(253)
    .describe(
      'The alias: its hostname (e.g. "shop-acme.vercel.app") or its uid, as List Aliases returns them.',
    ),
);

const ProviderAlias = builtOnce(() =>
  z
    .object({
      uid: z.string(),
      alias: z.string(),
      deploymentId: z.string().nullable().optional(),
      projectId: z.string().nullable().optional(),
      createdAt: z.number().optional(),
      updatedAt: z.number().optional(),
    })
    .loose(),
);

/** A hostname that points at one deployment. */
export const Alias = builtOnce(() =>
  z.object({
    uid: z.string().describe('Alias id.'),
    alias: z.string().describe('The hostname, e.g. shop-acme.vercel.app.'),
    deployment_id: z.string().nullable().describe('Deployment it points at.'),
    project_id: z.string().nullable().describe('Project of that deployment.'),
    created_at: z.string().nullable().describe('ISO 8601 time it was created.'),
    updated_at: z.string().nullable().describe('ISO 8601 time it last moved.'),
  }),
);
export type Alias = z.infer<ReturnType<typeof Alias>>;

export function toAlias(raw: unknown, where = 'alias'): Alias {
  const value = readAnswer(ProviderAlias(), raw, where, 'an alias');
  return {
    uid: value.uid,
    alias: value.alias,
    deployment_id: value.deploymentId ?? null,
    project_id: value.projectId ?? null,
    created_at: isoTime(value.createdAt),
    updated_at: isoTime(value.updatedAt),
  };
}

/**
 * One alias, read (GET, safe to retry). With project scoping, the
 * deployment it points at must be in the allowed projects (read first, as
 * deployment steps do); nothing else is sent otherwise.
 */
export async function readAliasInScope(context: StepContext, ref: string, what: string): Promise<Alias> {
  const path = deploymentsPath('alias', { id: ref });
  const response = await context.http.request({ method: 'GET', path });
  const alias = toAlias(response.body, `GET ${path}`);
  if (alias.deployment_id) await deploymentInScope(context, alias.deployment_id, what);
  return alias;
}
