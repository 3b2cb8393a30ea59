import { z } from 'zod';
import { defineStep } from '../../src/step.js';
import { callGovernance, connectionProject, governance, UserId } from './index.js';

export default defineStep({
  id: 'governance.remove_user',
  integration: governance,
  title: 'Remove User From Project',
  description: "Remove a member from the connection's project; they lose access to it at once.",
  agentDescription:
    "Removes a user from the connection's project: they lose access to everything in it immediately, and getting them back takes a new invite. Needs an API key whose user is an admin of the project. Takes the user_id (not an email). Only use when the user explicitly asked to remove this person; to reduce access, prefer Update User Role with viewer. It does not deactivate the account (that happens in the identity provider) and does not delete any project.",
  keywords: ['remove user', 'remove member', 'revoke access', 'offboard', 'kick', 'delete user from project'],
  input: z.object({ user_id: UserId }),
  output: z.object({
    removed: z.literal(true).describe('Always true: failures are errors.'),
    user_id: z.string().describe('The user removed from the project.'),
    project_id: z.string().describe('Project the user was removed from (the connection’s project).'),
  }),
  access: 'destructive',
  // Removing a user who is already gone changes nothing more; a replay at worst reports not found.
  idempotent: true,
  variables: { user_id: '$.user_id' },
  async run(input, context) {
    const projectId = connectionProject(context);
    // The spec's request body for removal is an empty JSON object.
    await callGovernance(context.http, 'removeUser', {}, { userId: input.user_id });
    return { removed: true as const, user_id: input.user_id, project_id: projectId };
  },
});
