import * as z from 'zod';
import type { HttpClient } from '../../../src/kit/index.js';
import { callGovernance } from './operations.js';
import { permissionsFor, Role } from './roles.js';

export const InviteStatus = z
  .enum(['pending', 'accepted'])
  .describe(
    'pending: the invitee is not in the organization yet and must accept the emailed invite. accepted: the invitee was already in the organization, so the platform accepted the invite at once and they are a member of the project now.',
  );

/** What Invite User and Change Invite Role both return about the invite they created. */
export const inviteFields = {
  invite_code: z
    .string()
    .min(1)
    .describe(
      'Code of the invite; Delete Project Invite and Change Invite Role take it while it is pending.',
    ),
  status: InviteStatus,
  user_id: z
    .string()
    .nullable()
    .describe(
      'Id of the user who joined the project when the invite was accepted at once; null while pending.',
    ),
  email: z.string().describe('Email address invited.'),
  role: Role,
  project_id: z.string().describe('Project the invite is for (the connection’s project).'),
};

/**
 * The platform answers `{invite_code}`. For an invitee already in the
 * organization the invite is accepted at once; the spec does not show that
 * answer, so we read `accepted: true` and `user_id` when present (what the
 * sandbox sends) and otherwise report the invite as pending.
 */
const InviteResponse = z
  .object({
    invite_code: z.string().optional(),
    accepted: z.boolean().optional(),
    user_id: z.string().optional(),
  })
  .loose();

export async function createInvite(
  http: HttpClient,
  invite: { projectId: string; email: string; role: Role },
) {
  const response = await callGovernance(
    http,
    'inviteUser',
    { permissions: permissionsFor(invite.role), email: invite.email },
    // Each call may email the invitee and leaves an invite behind: never replayed after an ambiguous failure.
    { idempotent: false },
  );
  const body = InviteResponse.safeParse(response.body ?? {});
  const answer = body.success ? body.data : {};
  return {
    invite_code: answer.invite_code as string,
    status: answer.accepted === true ? ('accepted' as const) : ('pending' as const),
    user_id: answer.accepted === true ? (answer.user_id ?? null) : null,
    email: invite.email,
    role: invite.role,
    project_id: invite.projectId,
  };
}
