import { type HttpRequest, NotFoundError, type StepContext } from '../../../src/kit/index.js';
import type { Deployment } from './deployment-schema.js';
import { type DeploymentsPathName, deploymentsPath, type PathParams } from './paths.js';
import {
  allowedProjects,
  fetchDeployment,
  requireDeploymentInScope,
  requireProjectInScope,
} from './project-scope.js';

/** One request of a step, by the name of its path in the table. */
export interface NamedRequest extends Omit<HttpRequest, 'path'> {
  path: DeploymentsPathName;
  params?: Omit<PathParams, 'id'>;
}

/**
 * A request about one project (its settings, variables, domains): refused
 * before anything is sent when the connection's constraints leave that
 * project out, then sent with the project in the path. Returns the body.
 */
export async function projectRequest(
  context: StepContext,
  project: string,
  what: string,
  { path, params, ...request }: NamedRequest,
): Promise<unknown> {
  requireProjectInScope(project, allowedProjects(context.constraints), what);
  const response = await context.http.request({
    ...request,
    path: deploymentsPath(path, { ...params, id: project }),
  });
  return response.body;
}

/**
 * A deployment the step may touch. Deployment paths name no project, so with
 * project scoping the deployment is read first (a GET) and nothing else is
 * sent for one outside the allowed projects; without scoping, nothing is read.
 */
export async function deploymentInScope(
  context: StepContext,
  id: string,
  what: string,
): Promise<Deployment | undefined> {
  const allowed = allowedProjects(context.constraints);
  if (!allowed) return undefined;
  const deployment = await fetchDeployment(context.http, id);
  await requireDeploymentInScope(context.http, deployment, allowed, what);
  return deployment;
}

/**
 * For a `reconcile` declaration's `find`: what a look finds, or undefined when the provider says it
 * does not exist. Any other failure is thrown, so the runtime keeps the
 * write's error with the look's beside it rather than guessing.
 */
export async function unlessNotFound<T>(look: Promise<T>): Promise<T | undefined> {
  try {
    return await look;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
