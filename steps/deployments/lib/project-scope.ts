import * as z from 'zod';
import { builtOnce, type HttpClient, PermissionError, type StepContext } from '../../../src/kit/index.js';
import { type Deployment, toDeployment } from './deployment-schema.js';
import { deploymentsPath } from './paths.js';

/**
 * The constraint an embedder sets per step or trigger to narrow a
 * connection to some projects: `{ projects: ['web', 'prj_123'] }`, names or
 * ids exactly as steps receive them. Absent = every project the token can
 * reach; an empty list = none.
 */
export const PROJECTS_CONSTRAINT = 'projects';

export function allowedProjects(constraints: StepContext['constraints']): readonly string[] | undefined {
  return constraints[PROJECTS_CONSTRAINT];
}

function refusal(what: string, allowed: readonly string[], facts: Record<string, unknown>, sent: boolean) {
  return new PermissionError(
    `${what} is outside the projects this step may touch (${allowed.length ? allowed.join(', ') : 'none'}). ${sent ? 'Nothing was changed.' : 'Nothing was sent.'}`,
    { sent, context: { allowedProjects: [...allowed], ...facts } },
  );
}

/** Refuses, before anything is sent, a project that is not in the allowed set. */
export function requireProjectInScope(
  project: string | undefined,
  allowed: readonly string[] | undefined,
  what: string,
): void {
  if (!allowed) return;
  if (project === undefined) {
    throw refusal(`${what} without a project`, allowed, {}, false);
  }
  if (!allowed.includes(project))
    throw refusal(`${what} for project "${project}"`, allowed, { project }, false);
}

/**
 * Teams and their members belong to no project: with project scoping they
 * are out of reach, as they are for the API Call step. Refused unsent.
 */
export function refuseAccountWide(allowed: readonly string[] | undefined, what: string): void {
  if (allowed) throw refusal(`${what} (account-wide, not about one project)`, allowed, {}, false);
}

/** Reads one deployment (GET, safe to retry). */
export async function fetchDeployment(http: HttpClient, id: string): Promise<Deployment> {
  const response = await http.request({ method: 'GET', path: deploymentsPath('deployment', { id }) });
  return toDeployment(response.body);
}

const ProjectName = builtOnce(() => z.object({ id: z.string(), name: z.string() }).loose());

/**
 * A deployment names its project by id only. When the allowed set holds
 * names, the project's name is read from the provider rather than trusted
 * from the deployment's own `name`, which a creator chooses freely.
 */
export async function requireDeploymentInScope(
  http: HttpClient,
  deployment: Deployment,
  allowed: readonly string[] | undefined,
  what: string,
): Promise<void> {
  if (!allowed) return;
  const projectId = deployment.project_id;
  if (projectId && allowed.includes(projectId)) return;
  if (projectId && allowed.length) {
    const response = await http.request({
      method: 'GET',
      path: deploymentsPath('project', { id: projectId }),
    });
    const project = ProjectName().safeParse(response.body);
    if (project.success && allowed.includes(project.data.name)) return;
  }
  throw refusal(
    `${what} of deployment ${deployment.id} (project ${projectId ?? 'unknown'})`,
    allowed,
    { deploymentId: deployment.id, projectId },
    true,
  );
}
