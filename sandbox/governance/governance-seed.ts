import type { GovernanceState } from './governance-state.js';

/** What the sandbox seeds, so the CLI, the demo and tests can connect without setup. */
export const GOVERNANCE_SANDBOX = {
  region: 'au',
  organizationId: 'org-acme',
  projectId: 'prj-acme-default',
  researchProjectId: 'prj-acme-research',
  /** Alice: organization admin. */
  adminKey: 'sk-gov-sandbox-admin-8f3a2c',
  /** Bob: viewer on the default project, not an admin. */
  memberKey: 'sk-gov-sandbox-member-5d1e7b',
  users: {
    admin: { id: 'usr-alice', email: 'alice@acme.example' },
    member: { id: 'usr-bob', email: 'bob@acme.example' },
    /** Carol is in the organization (editor on the research project) but not in the default project. */
    orgMember: { id: 'usr-carol', email: 'carol@acme.example' },
  },
} as const;

/**
 * Organization Acme in the AU stack: Alice its admin, Bob a viewer on the
 * default project, Carol an editor on the research project; one key each
 * for Alice and Bob.
 */
export function seedGovernance(state: GovernanceState): void {
  const seed = GOVERNANCE_SANDBOX;
  const org = state.addOrganization({ id: seed.organizationId, name: 'Acme', region: seed.region });
  const alice = state.addUser({ ...seed.users.admin, name: 'Alice Admin' });
  const bob = state.addUser({ ...seed.users.member, name: 'Bob Viewer' });
  const carol = state.addUser({ ...seed.users.orgMember, name: 'Carol Researcher' });
  org.admins.add(alice.id);
  state.keys.set(seed.adminKey, alice.id);
  state.keys.set(seed.memberKey, bob.id);
  state.addProject({ id: seed.projectId, name: 'Acme default', organizationId: org.id, owner: alice.id });
  state.addProject({
    id: seed.researchProjectId,
    name: 'Research',
    organizationId: org.id,
    owner: alice.id,
  });
  state.addMember(seed.projectId, bob.id, 'viewer');
  state.addMember(seed.researchProjectId, carol.id, 'editor');
}
