import * as z from 'zod';
import { builtOnce, defineStep } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { DeploymentId } from './lib/deployment-schema.js';
import { recentDeploymentOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { deploymentInScope } from './lib/project-request.js';
import { readAnswer } from './lib/provider-answer.js';
import { removalOutput, removalStep } from './lib/removal.js';

const Deleted = builtOnce(() => z.object({ uid: z.string(), state: z.literal('DELETED') }).loose());

export default defineStep({
  id: 'deployments.delete_deployment',
  integration: deployments,
  title: 'Delete Deployment',
  description: 'Delete a deployment permanently: its URL stops serving and it leaves the history.',
  agentDescription:
    'Deletes one deployment permanently; its unique URL stops working and it cannot be undone. Do not delete the deployment that currently serves production (check with Get Deployment or List Deployments first); to stop a build, use Cancel Deployment instead. Only use when the user asked for the deletion. Safe to retry: a repeat that finds it already gone succeeds with already_done true.',
  keywords: ['delete', 'remove', 'destroy', 'clean up', 'delete deployment', 'remove preview'],
  get input() {
    return z.strictObject({ deployment_id: DeploymentId() });
  },
  options: { deployment_id: recentDeploymentOptions },
  get output() {
    return removalOutput(
      'deployment_id',
      'The deleted deployment.',
      'deleted',
      'Always true: the deployment no longer exists.',
    );
  },
  ...removalStep('deployment_id', 'deleted'),
  examples: [{ title: 'Remove a preview', input: { deployment_id: 'dpl_from_create_deployment' } }],
  async run(input, context) {
    await deploymentInScope(context, input.deployment_id, 'Deleting');
    const response = await context.http.request({
      method: 'DELETE',
      path: deploymentsPath('deleteDeployment', { id: input.deployment_id }),
    });
    const answer = readAnswer(Deleted(), response.body, 'answer', 'a deletion');
    return { deployment_id: answer.uid, deleted: true as const, already_done: false };
  },
});
