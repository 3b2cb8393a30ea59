import * as z from 'zod';
import { defineStep, type StepContext } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { InviteCode } from './lib/ids.js';
import { callGovernance } from './lib/operations.js';

export default defineStep({
  id: 'governance.delete_invite',
  integration: governance,
  title: 'Delete Project Invite',
  description: "Delete a pending invite to the connection's project, so its link stops working.",
  agentDescription:
    "Deletes a pending invite by its invite_code; the emailed link stops working. Needs an API key whose user is an admin of the project. An invite that was already accepted or deleted is not found (an error). To change an invite's role, use Change Invite Role (it deletes and re-creates in one step). Safe to retry: when the connection drops after the platform may have deleted the invite, the step sends the delete again, and if that finds the invite gone it succeeds with already_done true instead of failing.",
  keywords: ['delete invite', 'cancel invite', 'revoke invite', 'withdraw invitation', 'pending invite'],
  input: z.strictObject({ invite_code: InviteCode }),
  output: z.object({
    deleted: z.literal(true).describe('Always true: failures are errors.'),
    already_done: z
      .boolean()
      .describe(
        "True when this call's first request may have deleted the invite but its answer was lost, and the repeated request found the invite gone: it is deleted, most likely by that first request (someone accepting or deleting it in the same moment cannot be told apart). False when this call deleted it and said so.",
      ),
    invite_code: z.string().describe('The deleted invite.'),
    project_id: z.string().describe('Project the invite was for (the connection’s project).'),
  }),
  // Reversible: inviting the same address again creates a new invite.
  access: 'write',
  // Invite codes are unique, so a replay can only find the same invite already gone.
  idempotent: true,
  // A 404 to a replay sent after an attempt that may have landed: our first delete did the work.
  onReplay: 'gone_means_done',
  alreadyDone: (input, context) => deleted(input, context, true),
  variables: { invite_code: '$.invite_code', already_done: '$.already_done' },
  examples: [{ title: 'Withdraw a pending invite', input: { invite_code: 'inv_from_invite_user' } }],
  async run(input, context) {
    await callGovernance(context.http, 'deleteInvite', { invite_code: input.invite_code });
    return deleted(input, context, false);
  },
});

function deleted(
  input: { invite_code: string },
  context: Pick<StepContext, 'connection'>,
  alreadyDone: boolean,
) {
  return {
    deleted: true as const,
    already_done: alreadyDone,
    invite_code: input.invite_code,
    project_id: connectionProject(context),
  };
}
