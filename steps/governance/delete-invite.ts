import { z } from 'zod';
import { defineStep } from '../../src/step.js';
import { callGovernance, connectionProject, governance, InviteCode } from './index.js';

export default defineStep({
  id: 'governance.delete_invite',
  integration: governance,
  title: 'Delete Project Invite',
  description: "Delete a pending invite to the connection's project, so its link stops working.",
  agentDescription:
    "Deletes a pending invite by its invite_code; the emailed link stops working. Needs an API key whose user is an admin of the project. An invite that was already accepted or deleted is not found. To change an invite's role, use Change Invite Role (it deletes and re-creates in one step). Safe to repeat: a repeat finds nothing to delete.",
  keywords: ['delete invite', 'cancel invite', 'revoke invite', 'withdraw invitation', 'pending invite'],
  input: z.object({ invite_code: InviteCode }),
  output: z.object({
    deleted: z.literal(true).describe('Always true: failures are errors.'),
    invite_code: z.string().describe('The deleted invite.'),
    project_id: z.string().describe('Project the invite was for (the connection’s project).'),
  }),
  // Reversible: inviting the same address again creates a new invite.
  access: 'write',
  // Invite codes are unique, so a replay can only find the same invite already gone.
  idempotent: true,
  variables: { invite_code: '$.invite_code' },
  async run(input, context) {
    const projectId = connectionProject(context);
    await callGovernance(context.http, 'deleteInvite', { invite_code: input.invite_code });
    return { deleted: true as const, invite_code: input.invite_code, project_id: projectId };
  },
});
