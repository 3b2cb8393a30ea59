import * as z from 'zod';
import { defineStep } from '../../src/kit/index.js';
import { governance } from './integration.js';
import { connectionProject } from './lib/connection-project.js';
import { Email } from './lib/ids.js';
import { createInvite, inviteFields } from './lib/invite-schema.js';
import { Role } from './lib/roles.js';

export default defineStep({
  id: 'governance.invite_user',
  integration: governance,
  title: 'Invite User to Project',
  description: "Invite someone to the connection's project by email, with a role (admin, editor or viewer).",
  agentDescription:
    "Invites an email address to the connection's project with a role. Needs an API key whose user is an admin of the project. The platform answers with an invite_code (status invited; keep the code): someone not yet in the organization must accept the emailed invite, someone already in it is added to the project at once, and the answer does not say which unless it reports the invite accepted (status accepted, with their user_id). To change the role of a pending invite use Change Invite Role; for a member use Update User Role. Not idempotent: it may email the invitee, so it is never retried after a failure that may have reached the platform.",
  keywords: ['invite', 'add user', 'add member', 'share project', 'grant access', 'onboard', 'email invite'],
  get input() {
    return z.strictObject({ email: Email(), role: Role() });
  },
  get output() {
    return z.object(inviteFields());
  },
  access: 'write',
  idempotent: false,
  // It may email the invitee: never replayed once it may have landed; what to check before inviting again:
  replay: {
    mode: 'refuse',
    hint: (input) =>
      `The invite for ${input.email} may or may not have been created: check the project's pending invites before inviting again.`,
  },
  variables: { invite_code: '$.invite_code', status: '$.status', user_id: '$.user_id' },
  examples: [{ title: 'Invite an editor', input: { email: 'dana@partner.example', role: 'editor' } }],
  async run(input, context) {
    const projectId = connectionProject(context);
    return await createInvite(context.http, { projectId, email: input.email, role: input.role });
  },
});
