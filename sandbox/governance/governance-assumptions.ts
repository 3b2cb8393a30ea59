import * as z from 'zod';

/**
 * What the governance spec leaves open and this emulator invents. Each
 * entry says why it is an assumption; real accounts may differ, so each is
 * a setting (`startSandbox({ assume: { governance: {...} } })`, or
 * `toolsteps sandbox --assume governance.<name>=<value>`).
 */
export const GovernanceAssumptions = z
  .object({
    // governance-api.md, States: an invitee already in the organization is "accepted
    // automatically", but Endpoints shows only "object with invite_code" as the answer.
    member_invite_answer: z
      .enum(['accepted', 'invite_code_only'])
      .default('accepted')
      .describe(
        'Answer to inviting an organization member: accepted = {invite_code, accepted: true, user_id}; invite_code_only = {invite_code}, as the spec shows.',
      ),
    // Rule 1 says an invite's role cannot be changed in place; what a second invite
    // of the same email does is not shown.
    second_invite: z
      .enum(['conflict', 'replace'])
      .default('conflict')
      .describe(
        'A second invite of an email with a pending invite: conflict = 409; replace = the old invite is deleted and a new one made.',
      ),
  })
  .strict();
export type GovernanceAssumptions = z.output<typeof GovernanceAssumptions>;
