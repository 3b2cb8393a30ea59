import * as z from 'zod';
import type { StepContext } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { DeploymentId, ProjectRef } from './deployment-schema.js';
import { projectOptions, recentDeploymentOptions } from './deployments-options.js';
import { projectRequest } from './project-request.js';

/** What Promote and Roll Back take: a project and one of its READY deployments. */
export const ProductionMoveInput = builtOnce(() =>
  z.strictObject({ project: ProjectRef(), deployment_id: DeploymentId() }),
);

/** What Promote and Roll Back answer alike. */
export const ProductionMoveOutput = builtOnce(() =>
  z.object({
    project: z.string().describe('The project, as given.'),
    deployment_id: z.string().describe("The deployment now serving the project's production domains."),
  }),
);

/** The rest Promote and Roll Back declare alike (their schemas are the two above, read by getters). */
export const productionMoveStep = {
  access: 'write',
  // It sets which deployment serves production: sent twice, it is set once.
  idempotent: true,
  options: { project: projectOptions, deployment_id: recentDeploymentOptions },
  variables: { deployment_id: '$.deployment_id' },
} as const;

/**
 * Moves the project's production domains to the deployment (the provider
 * answers 201 with no body), refused unsent for a project outside the
 * connection's constraints.
 */
export async function moveProduction(
  context: StepContext,
  path: 'promote' | 'rollback',
  input: { project: string; deployment_id: string },
  what: string,
) {
  await projectRequest(context, input.project, what, {
    method: 'POST',
    path,
    params: { deploymentId: input.deployment_id },
    idempotent: true,
  });
  return { project: input.project, deployment_id: input.deployment_id };
}
