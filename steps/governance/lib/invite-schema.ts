import * as z from 'zod';
import type { HttpClient } from '../../../src/kit/index.js';
import { builtOnce } from '../../../src/kit/index.js';
import { callGovernance } from './operations.js';
import { permissionsFor, Role } from './roles.js';

export const InviteStatus = builtOnce(() =>
  z
    .enum(['invited', 'accepted'])
    .describe(
      'invited: the platform made the invite and answered with its invite_code, as it answers every invite; an invitee not yet in the organization must accept the emailed invite, one already in it was accepted at once (the answer does not say which). accepted: the answer says the invite was accepted at once (the invitee was already in the organization and is a member of the project now).',
    ),
);

/** What Invite User and Change Invite Role both return about the invite they created. */
export const inviteFields = builtOnce(() => ({
  invite_code: z
    .string()
    .min(1)
    .describe(
      'Code of the invite; Delete Project Invite and Change Invite Role take it while it is pending.',
    ),
  status: InviteStatus(),
  user_id: z
    .string()
    .nullable()
    .describe(
      'Id of the user who joined the project, when the answer says the invite was accepted at once; else null.',
    ),
  email: z.string().describe('Email address invited.'),
  role: Role(),
  project_id: z.string().describe('Project the invite is for (the connection’s project).'),
}));

/**
 * The platform answers `{invite_code}` (governance-api.md, Endpoints), for
 * every invite: one to someone already in the organization is accepted at
 * once (States), and the answer shows nothing of it. So the status is decided
 * from what the answer shows: `invited` for `{invite_code}` alone (not
 * `pending`, which would be wrong for a member), `accepted` only when the
 * answer says `accepted: true` (with `user_id`, as the sandbox's assumed
 * answer does; the spec does not show it).
 */
const InviteResponse = builtOnce(() =>
  z
    .object({
      invite_code: z.string().optional(),
      accepted: z.boolean().optional(),
      user_id: z.string().optional(),
    })
    .loose(),
);

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
  const body = InviteResponse().safeParse(response.body ?? {});
  const answer = body.success ? body.data : {};
  return {
    invite_code: answer.invite_code as string,
    status: answer.accepted === true ? ('accepted' as const) : ('invited' as const),
    user_id: answer.accepted === true ? (answer.user_id ?? null) : null,
    email: invite.email,
    role: invite.role,
    project_id: invite.projectId,
  };
}
