import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { InviteCode } from './lib/ids.js';
import { callGovernance } from './lib/operations.js';
import { type ProjectRemovalTexts, projectRemoval, projectRemovalOutput } from './lib/project-removal.js';

/** What this removal's output says, in its own words. */
const REMOVAL_TEXTS: ProjectRemovalTexts = {
  alreadyDoneMeans:
    "True when this call's first request may have deleted the invite but its answer was lost, and the repeated request found the invite gone: it is deleted, most likely by that first request (someone accepting or deleting it in the same moment cannot be told apart). False when this call deleted it and said so.",
  key: 'The deleted invite.',
  project: 'Project the invite was for (the connection’s project).',
};

export default defineStep({
  id: 'governance.delete_invite',
  integration: governance,
  title: 'Delete Project Invite',
  description: "Delete a pending invite to the connection's project, so its link stops working.",
  agentDescription:
    "Deletes a pending invite by its invite_code; the emailed link stops working. Needs an API key whose user is an admin of the project. An invite that was already accepted or deleted is not found (an error). To change an invite's role, use Change Invite Role (it deletes and re-creates in one step). Safe to retry: when the connection drops after the platform may have deleted the invite, the step sends the delete again, and if that finds the invite gone it succeeds with already_done true instead of failing.",
  keywords: ['delete invite', 'cancel invite', 'revoke invite', 'withdraw invitation', 'pending invite'],
  get input() {
    return z.strictObject({ invite_code: InviteCode() });
  },
  get output() {
    return projectRemovalOutput('deleted', 'invite_code', REMOVAL_TEXTS);
  },
  ...projectRemoval('deleted', 'invite_code'),
  // Reversible: inviting the same address again creates a new invite.
  access: 'write',
  examples: [{ title: 'Withdraw a pending invite', input: { invite_code: 'inv_from_invite_user' } }],
  async run(input, context) {
    const projectId = connectionProject(context);
    await callGovernance(context.http, 'deleteInvite', { invite_code: input.invite_code });
    return {
      deleted: true as const,
      already_done: false,
      invite_code: input.invite_code,
      project_id: projectId,
    };
  },
});
