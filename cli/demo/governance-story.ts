import { GOVERNANCE_SANDBOX } from '../../sandbox/governance/governance-seed.js';
import { isToolstepsError } from '../../src/errors/index.js';
import type { Connection } from '../../src/model/connection.js';
import { definedOnly } from '../../src/values/defined-only.js';
import type { DemoContext } from './demo-context.js';

/**
 * Create a project, invite a newcomer and change their pending invite, add an
 * organization member (accepted at once), change their role, remove them;
 * then show a non-admin key and a deactivated user's key being refused.
 */
export async function governanceStory(demo: DemoContext): Promise<void> {
  demo.heading('Governance: projects, invites and roles on the platform API');
  const seed = GOVERNANCE_SANDBOX;
  const baseUrl = demo.sandbox.baseUrl('governance', seed.region);
  const connect = async (id: string, label: string, apiKey: string, projectId?: string) => {
    const now = Date.now();
    const connection: Connection = {
      id,
      integration: 'governance',
      label,
      kind: 'api_key',
      fields: { region: seed.region, baseUrl, ...definedOnly({ projectId }) },
      secrets: { apiKey },
      createdAt: now,
      updatedAt: now,
    };
    await demo.runtime.store.put(connection);
  };
  await connect('acme-org', 'Acme organization (sandbox)', seed.adminKey);
  demo.say(`connected "acme-org" with an admin API key, region ${seed.region} (${baseUrl})`);

  const project = await demo.step<{ project_id: string }>('governance.create_project', 'acme-org', {
    name: 'Support agents',
    description: 'Agents that answer customer tickets.',
    organization_id: seed.organizationId,
  });
  const projectId = project.output.project_id;
  await connect('acme-support-agents', 'Acme / Support agents (sandbox)', seed.adminKey, projectId);
  demo.say(`connected "acme-support-agents" to the new project: its id travels in the Authorization header`);

  const invite = await demo.step<{ invite_code: string }>(
    'governance.invite_user',
    'acme-support-agents',
    { email: 'dana@newhire.example', role: 'viewer' },
    'not in the organization: pending',
  );
  await demo.step(
    'governance.change_invite_role',
    'acme-support-agents',
    { invite_code: invite.output.invite_code, email: 'dana@newhire.example', role: 'editor' },
    'delete, then invite again',
  );
  const member = await demo.step<{ user_id: string }>(
    'governance.invite_user',
    'acme-support-agents',
    { email: seed.users.orgMember.email, role: 'viewer' },
    'already in the organization: accepted at once',
  );
  await demo.step('governance.update_user_role', 'acme-support-agents', {
    user_id: member.output.user_id,
    role: 'editor',
  });
  await demo.step(
    'governance.remove_user',
    'acme-support-agents',
    { user_id: member.output.user_id },
    'destructive',
  );

  // Bob is a viewer: his key is valid but lacks Admin; once deactivated, it stops working at once.
  await connect('acme-bob', 'Bob (viewer, sandbox)', seed.memberKey, seed.projectId);
  const attempt = async (note: string) => {
    try {
      await demo.step('governance.invite_user', 'acme-bob', { email: 'eve@acme.example', role: 'viewer' });
    } catch (error) {
      if (!isToolstepsError(error)) throw error;
      demo.say(`${note}: refused with ${error.code}: ${error.message}`);
    }
  };
  await attempt("Bob's key (a viewer, not an admin)");
  demo.sandbox.governance.deactivateUser(seed.users.member.id);
  demo.say('the identity provider deactivates Bob');
  await attempt("Bob's key, on the very next request");
}
