import * as z from 'zod';
import {
  definedOnly,
  defineStep,
  isToolstepsError,
  ToolstepsError,
  writeOutcome,
} from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { Email, InviteCode } from './lib/ids.js';
import { createInvite, inviteFields } from './lib/invite-schema.js';
import { callGovernance } from './lib/operations.js';
import { Role } from './lib/roles.js';

export default defineStep({
  id: 'governance.change_invite_role',
  integration: governance,
  title: 'Change Invite Role',
  description:
    'Give a pending invite another role. The platform cannot change an invite in place, so this deletes the invite and creates a new one.',
  agentDescription:
    "Changes the role of a PENDING invite to the connection's project. The platform does not allow changing an invite's role in place, so this step makes two calls: it deletes the invite, then invites the same email again with the new role, and returns the NEW invite_code (the old one stops working and the invitee gets a new email). email MUST be the invitee's address exactly as it was given to Invite User: the platform cannot look an invite up by its code, so this step cannot check it, and a wrong email deletes the invite and invites someone else instead. Needs an admin's API key. If the second call fails, the error (code partial_failure) says that the old invite is gone and gives the email and role to pass to Invite User. For someone who is already a member, use Update User Role.",
  keywords: [
    'change invite',
    'update invite',
    'invite role',
    're-invite',
    'reinvite',
    'pending invite',
    'role',
  ],
  get input() {
    return z.strictObject({
      invite_code: InviteCode(),
      email: Email().describe(
        "The invitee's email exactly as given to Invite User: the new invite goes to it. It cannot be checked against the invite (the platform cannot look invites up), so a wrong address deletes this invite and invites someone else.",
      ),
      role: Role().describe('The role the new invite grants: admin, editor or viewer.'),
    });
  },
  get output() {
    return z.object({
      ...inviteFields(),
      invite_code: inviteFields().invite_code.describe(
        'Code of the NEW invite; the old code no longer works.',
      ),
      previous_invite_code: z.string().describe('The deleted invite.'),
    });
  },
  access: 'write',
  idempotent: false,
  variables: {
    invite_code: '$.invite_code',
    status: '$.status',
    previous_invite_code: '$.previous_invite_code',
  },
  examples: [
    {
      title: 'Make a pending invite a viewer',
      input: { invite_code: 'inv_from_invite_user', email: 'dana@partner.example', role: 'viewer' },
    },
  ],
  async run(input, context) {
    const projectId = connectionProject(context);
    try {
      // Not replayed: if a delete that landed were sent again it would answer "not found",
      // and we would report a missing invite when we had just deleted it.
      await callGovernance(
        context.http,
        'deleteInvite',
        { invite_code: input.invite_code },
        { idempotent: false },
      );
    } catch (error) {
      if (isToolstepsError(error)) {
        const outcome = writeOutcome(error);
        const unknown = outcome === 'unknown';
        // Made after the transport's generic marking, so these more specific words win.
        throw error.with({
          outcome,
          hint: unknown
            ? `Deleting invite ${input.invite_code} failed after it may have reached the platform, and no new invite was created. Run Delete Project Invite (if it answers not found, the invite is already gone), then Invite User with email "${input.email}" and role "${input.role}".`
            : `Nothing was changed: invite ${input.invite_code} was not deleted and no new invite was created.`,
          context: {
            step_outcome: unknown ? 'old_invite_delete_unknown_new_invite_not_created' : 'nothing_changed',
          },
        });
      }
      throw error;
    }
    try {
      const created = await createInvite(context.http, { projectId, email: input.email, role: input.role });
      return { ...created, previous_invite_code: input.invite_code };
    } catch (error) {
      throw halfDone(error, { ...input, projectId });
    }
  },
});

/** The second call failed after the first succeeded: say plainly what state the invite is in and how to finish. */
function halfDone(
  error: unknown,
  change: { invite_code: string; email: string; role: string; projectId: string },
): ToolstepsError {
  const outcome = writeOutcome(error);
  const unknown = outcome === 'unknown';
  const reason = error instanceof Error ? error.message : String(error);
  const retry = `run Invite User with email "${change.email}" and role "${change.role}"`;
  const message = unknown
    ? `Change Invite Role stopped halfway: the old invite ${change.invite_code} WAS DELETED, and the new invite for ${change.email} may or may not have been created (the request failed after it may have reached the platform: ${reason}). Check the project's pending invites for ${change.email}; if there is none, ${retry}.`
    : `Change Invite Role stopped halfway: the old invite ${change.invite_code} WAS DELETED, and the new invite was NOT created (${reason}). ${change.email} has no invite to the project now; to finish, ${retry}.`;
  return new ToolstepsError('partial_failure', message, {
    status: isToolstepsError(error) ? error.status : undefined,
    // Running this step again cannot help: the old invite is gone. Invite User finishes the change.
    retryable: false,
    cause: error,
    // The shared vocabulary, about the invite this call tried to create; step_outcome says the whole story.
    outcome,
    context: definedOnly({
      step_outcome: unknown
        ? 'old_invite_deleted_new_invite_unknown'
        : 'old_invite_deleted_new_invite_not_created',
      deleted_invite_code: change.invite_code,
      email: change.email,
      role: change.role,
      project_id: change.projectId,
      retry: { step: 'governance.invite_user', input: { email: change.email, role: change.role } },
      causeCode: isToolstepsError(error) ? error.code : undefined,
    }),
  });
}
