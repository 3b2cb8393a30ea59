import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { UserId } from './lib/ids.js';
import { callGovernance } from './lib/operations.js';
import { permissionsFor, Role } from './lib/roles.js';

export default defineStep({
  id: 'governance.update_user_role',
  integration: governance,
  title: 'Update User Role On Project',
  description: "Change the role (admin, editor or viewer) of a member of the connection's project.",
  agentDescription:
    "Sets the role of a user who is already a member of the connection's project. Needs an API key whose user is an admin of the project. Takes the user_id (not an email). Idempotent: it sets an absolute role, so repeating it is harmless. For someone who has only a pending invite, use Change Invite Role instead.",
  keywords: ['change role', 'update role', 'promote', 'demote', 'make admin', 'permissions', 'member'],
  get input() {
    return z.strictObject({ user_id: UserId(), role: Role() });
  },
  get output() {
    return z.object({
      updated: z.literal(true).describe('Always true: failures are errors.'),
      user_id: z.string().describe('The user whose role was set.'),
      role: Role(),
      project_id: z.string().describe('Project the role applies to (the connection’s project).'),
    });
  },
  access: 'write',
  // Setting the same absolute role twice leaves the project as setting it once: safe to replay.
  idempotent: true,
  variables: { user_id: '$.user_id', role: '$.role' },
  examples: [{ title: 'Make Bob an editor', input: { user_id: 'usr-bob', role: 'editor' } }],
  async run(input, context) {
    const projectId = connectionProject(context);
    await callGovernance(
      context.http,
      'updateUserRole',
      { permissions: permissionsFor(input.role) },
      { userId: input.user_id },
    );
    return { updated: true as const, user_id: input.user_id, role: input.role, project_id: projectId };
  },
});
