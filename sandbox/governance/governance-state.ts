/** In-memory records of the emulated platform: organizations, users, API keys, projects, memberships, invites. */

export const GOVERNANCE_REGIONS = ['au', 'eu', 'us'] as const;
export type GovernanceRegion = (typeof GOVERNANCE_REGIONS)[number];
export type ProjectRole = 'admin' | 'editor' | 'viewer';

export interface OrganizationRecord {
  id: string;
  name: string;
  /** The stack the organization is hosted on; its users' keys work on that region's host only. */
  region: GovernanceRegion;
  members: Set<string>;
  /** Organization admins hold the Admin permission on every project of the organization. */
  admins: Set<string>;
}

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  /** False once the identity provider deactivated the user: every key of theirs stops working. */
  active: boolean;
}

export interface ProjectRecord {
  id: string;
  name: string;
  description: string;
  organizationId: string;
  /** user id -> role on the project. */
  members: Map<string, ProjectRole>;
}

export interface InviteRecord {
  code: string;
  projectId: string;
  email: string;
  role: ProjectRole;
  status: 'pending' | 'accepted';
}

export class GovernanceState {
  readonly organizations = new Map<string, OrganizationRecord>();
  readonly users = new Map<string, UserRecord>();
  /** API key -> user id. Keys belong to a user and carry the user's access. */
  readonly keys = new Map<string, string>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly invites = new Map<string, InviteRecord>();
  private userCount = 0;

  /** Empty until seeded: the emulator seeds each new state from governance-seed.ts. */
  constructor(readonly newId: () => string) {}

  addOrganization(organization: { id?: string; name: string; region: GovernanceRegion }): OrganizationRecord {
    const record: OrganizationRecord = {
      id: organization.id ?? `org-${this.newId()}`,
      name: organization.name,
      region: organization.region,
      members: new Set(),
      admins: new Set(),
    };
    this.organizations.set(record.id, record);
    return record;
  }

  addUser(user: { id?: string; email: string; name?: string; active?: boolean }): UserRecord {
    this.userCount += 1;
    const record: UserRecord = {
      id: user.id ?? `usr-${this.userCount}-${this.newId().slice(0, 8)}`,
      email: user.email.toLowerCase(),
      name: user.name ?? user.email,
      active: user.active ?? true,
    };
    this.users.set(record.id, record);
    return record;
  }

  addProject(project: {
    id?: string;
    name: string;
    description?: string;
    organizationId: string;
    owner: string;
  }): ProjectRecord {
    const record: ProjectRecord = {
      id: project.id ?? this.newId(),
      name: project.name,
      description: project.description ?? '',
      organizationId: project.organizationId,
      members: new Map(),
    };
    this.projects.set(record.id, record);
    // The creator administers the project they created.
    this.addMember(record.id, project.owner, 'admin');
    return record;
  }

  /** Joins a user to a project, and so to its organization (the platform adds members to orgs through projects). */
  addMember(projectId: string, userId: string, role: ProjectRole): void {
    const project = this.projects.get(projectId)!;
    project.members.set(userId, role);
    this.organizations.get(project.organizationId)?.members.add(userId);
  }

  /**
   * Leaves the project, and only the project: organization membership is
   * independent of project membership, so the user stays in the organization
   * (and their API keys keep working) even when this was their last project.
   */
  removeMember(projectId: string, userId: string): void {
    this.projects.get(projectId)!.members.delete(userId);
  }

  userByEmail(email: string): UserRecord | undefined {
    const wanted = email.toLowerCase();
    return [...this.users.values()].find((user) => user.email === wanted);
  }

  organizationsOf(userId: string): OrganizationRecord[] {
    return [...this.organizations.values()].filter(
      (organization) => organization.members.has(userId) || organization.admins.has(userId),
    );
  }

  pendingInvite(projectId: string, email: string): InviteRecord | undefined {
    const wanted = email.toLowerCase();
    return [...this.invites.values()].find(
      (invite) => invite.projectId === projectId && invite.email === wanted && invite.status === 'pending',
    );
  }

  createKey(userId: string): string {
    if (!this.users.has(userId)) throw new Error(`No sandbox user "${userId}".`);
    const key = `sk-gov-${this.newId().replace(/-/g, '')}`;
    this.keys.set(key, userId);
    return key;
  }
}
