import * as z from 'zod';
import { defineStep, type HttpClient, ProviderError, type ToolstepsError } from '../../src/kit/index.js';
import { deployments } from './integration.js';
import { CANCELABLE_STATES, Deployment, DeploymentId, toDeployment } from './lib/deployment-schema.js';
import { cancelableDeploymentOptions } from './lib/deployments-options.js';
import { deploymentsPath } from './lib/paths.js';
import { allowedProjects, fetchDeployment, requireDeploymentInScope } from './lib/project-scope.js';

const STATE_WORDS: Record<string, string> = {
  READY: 'it has already finished building and is live at its URL',
  ERROR: 'its build has already failed',
  CANCELED: 'it was already cancelled',
  BLOCKED: 'it is blocked and never started building',
};

function notCancelable(deployment: { id: string; state: string }, cause?: ToolstepsError): ProviderError {
  const why = STATE_WORDS[deployment.state] ?? 'it is not building';
  return new ProviderError(
    `Deployment ${deployment.id} cannot be cancelled: it is ${deployment.state} (${why}). Only QUEUED, INITIALIZING or BUILDING deployments can be cancelled.`,
    {
      code: 'invalid_state',
      status: cause?.status,
      sent: cause?.sent,
      providerCode: cause?.providerCode,
      providerMessage: cause?.providerMessage,
      context: {
        deploymentId: deployment.id,
        state: deployment.state,
        cancelableStates: [...CANCELABLE_STATES],
      },
      cause,
    },
  );
}

/** A provider refusal that says something about the deployment's state, not about us or the network. */
function isRefusal(error: unknown): error is ToolstepsError {
  const code = (error as ToolstepsError | undefined)?.code;
  return code === 'provider_rejected' || code === 'conflict' || code === 'invalid_state';
}

/** Reads the state after a refusal; an unreadable state leaves the provider's own error standing. */
async function stateAfterRefusal(http: HttpClient, id: string): Promise<Deployment | undefined> {
  try {
    return await fetchDeployment(http, id);
  } catch {
    return undefined;
  }
}

export default defineStep({
  id: 'deployments.cancel_deployment',
  integration: deployments,
  title: 'Cancel Deployment',
  description: 'Cancel a deployment that is queued or still building.',
  agentDescription:
    'Stops a deployment that is QUEUED, INITIALIZING or BUILDING; it becomes CANCELED, which cannot be undone or resumed (create a new deployment instead). A READY, ERROR or already CANCELED deployment cannot be cancelled: the step fails with code invalid_state and names the current state in context.state; do not retry it. Safe to retry after a network failure: when the connection drops after the provider may have cancelled it, the step sends the cancel again, and if that finds the deployment CANCELED it succeeds with already_done true (cancelled, most likely by that first request) instead of failing.',
  keywords: ['cancel', 'stop', 'abort', 'halt build', 'cancel deployment', 'stop deploy'],
  get input() {
    return z.strictObject({ deployment_id: DeploymentId() });
  },
  options: { deployment_id: cancelableDeploymentOptions },
  get output() {
    return z.object({
      deployment: Deployment().describe('The deployment after cancelling: state CANCELED.'),
      already_done: z
        .boolean()
        .describe(
          "True when this call's first request may have cancelled the deployment but its answer was lost, and the repeated request found it already CANCELED: it is cancelled, most likely by that first request (a cancel by someone else in the same moment cannot be told apart). False when this call cancelled it and said so.",
        ),
    });
  },
  access: 'destructive',
  idempotent: true,
  // A cancel that may have landed, or whose replay was refused: if the deployment is now CANCELED,
  // our first cancel did it (a cancel by someone else in the same moment cannot be told apart).
  replay: {
    mode: 'reconcile',
    find: async (input, { http }) => {
      const current = await stateAfterRefusal(http, input.deployment_id);
      return current?.state === 'CANCELED' ? { deployment: current, already_done: true } : undefined;
    },
  },
  variables: {
    deployment_id: '$.deployment.id',
    state: '$.deployment.state',
    already_done: '$.already_done',
  },
  examples: [{ title: 'Stop a build', input: { deployment_id: 'dpl_from_create_deployment' } }],
  async run(input, { http, constraints }) {
    const id = input.deployment_id;
    const allowed = allowedProjects(constraints);
    if (allowed) {
      // Project scoping needs the deployment's project, so read it first; the
      // same read refuses a finished deployment without sending the cancel.
      const current = await fetchDeployment(http, id);
      await requireDeploymentInScope(http, current, allowed, 'Cancelling');
      if (!CANCELABLE_STATES.includes(current.state)) throw notCancelable(current);
    }
    try {
      // The provider decides atomically; a state read first could be stale a
      // second later, as builds finish on their own. Cancelling twice leaves
      // the deployment CANCELED either way, so a lost answer may be replayed.
      const response = await http.request({
        method: 'PATCH',
        path: deploymentsPath('cancelDeployment', { id }),
        idempotent: true,
      });
      return { deployment: toDeployment(response.body), already_done: false };
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // The refusal's wording is the provider's; the state that explains it is read, not parsed from text.
      const current = await stateAfterRefusal(http, id);
      if (current && !CANCELABLE_STATES.includes(current.state)) throw notCancelable(current, error);
      throw error;
    }
  },
});
