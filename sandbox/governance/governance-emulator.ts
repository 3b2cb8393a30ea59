import { randomUUID } from 'node:crypto';
import type { Emulator } from '../emulator.js';
import { Router } from '../router.js';
import type { Reply, SandboxRequest } from '../sandbox-http.js';
import { GovernanceAssumptions } from './governance-assumptions.js';
import { authenticate, type GovernanceCaller } from './governance-auth.js';
import { fail } from './governance-permissions.js';
import { governanceRoutes } from './governance-routes.js';
import { seedGovernance } from './governance-seed.js';
import {
  GOVERNANCE_REGIONS,
  type GovernanceRegion,
  GovernanceState,
  type UserRecord,
} from './governance-state.js';

export interface GovernanceEmulatorOptions {
  /** Ids of projects, invites and keys; random UUIDs unless a test wants them predictable. */
  newId?: () => string;
  /** What the spec leaves open (governance-assumptions.ts); defaults when absent. */
  assumptions?: GovernanceAssumptions;
}

/**
 * The platform's governance API: one stack per region, mounted as
 * `/governance/<au|eu|us>/latest/...`. Organizations, users (admin or not,
 * active or deactivated), API keys, projects, memberships and invites, with
 * the spec's states table: inviting someone outside the organization leaves
 * a pending invite; inviting an organization member adds them at once; an
 * invite's role cannot be changed in place; a deactivated user's keys fail
 * on the very next request.
 */
export class GovernanceEmulator implements Emulator {
  readonly mount = 'governance';
  state: GovernanceState;
  private readonly newId: () => string;
  private readonly api = new Router<GovernanceCaller>();

  readonly assumptions: GovernanceAssumptions;

  constructor(options: GovernanceEmulatorOptions = {}) {
    this.newId = options.newId ?? randomUUID;
    this.assumptions = options.assumptions ?? GovernanceAssumptions.parse({});
    this.state = this.seededState();
    governanceRoutes(this.api);
  }

  reset(): void {
    this.state = this.seededState();
  }

  /** A fresh state holding the seed (governance-seed.ts). */
  private seededState(): GovernanceState {
    const state = new GovernanceState(this.newId);
    seedGovernance(state);
    return state;
  }

  /** Test hook: the identity provider deactivates a user. Their keys fail from the next request on. */
  deactivateUser(userId: string): void {
    this.requireUser(userId).active = false;
  }

  /** Undoes a deactivation, as an administrator would in the provider's console, so a test can cycle a user. */
  reactivateUser(userId: string): void {
    this.requireUser(userId).active = true;
  }

  /** Test hook: a user creates an API key in the dashboard. */
  createKey(userId: string): string {
    return this.state.createKey(userId);
  }

  /**
   * Test hook: a person in the organization (or outside it, without `organizationId`).
   * `orgAdmin` makes them an organization admin, which is Admin on every project of it.
   */
  addUser(user: {
    id?: string;
    email: string;
    name?: string;
    organizationId?: string;
    orgAdmin?: boolean;
  }): UserRecord {
    const record = this.state.addUser(user);
    if (user.organizationId) {
      const organization = this.state.organizations.get(user.organizationId);
      if (!organization) throw new Error(`No sandbox organization "${user.organizationId}".`);
      organization.members.add(record.id);
      if (user.orgAdmin) organization.admins.add(record.id);
    }
    return record;
  }

  /** Test hook: the invitee follows the emailed link and signs up; they join the project and its organization. */
  acceptInvite(code: string): UserRecord {
    const invite = this.state.invites.get(code);
    if (invite?.status !== 'pending') throw new Error(`No pending sandbox invite "${code}".`);
    const user = this.state.userByEmail(invite.email) ?? this.state.addUser({ email: invite.email });
    this.state.addMember(invite.projectId, user.id, invite.role);
    invite.status = 'accepted';
    return user;
  }

  private requireUser(userId: string): UserRecord {
    const user = this.state.users.get(userId);
    if (!user) throw new Error(`No sandbox user "${userId}".`);
    return user;
  }

  async handle(request: SandboxRequest): Promise<Reply | undefined> {
    const [, region = '', ...rest] = request.path.split('/');
    if (!(GOVERNANCE_REGIONS as readonly string[]).includes(region)) return fail(404, 'Not found');
    const path = `/${rest.join('/')}`;
    const found = this.api.match({ method: request.method, path });
    if (!found) return fail(404, 'Not found');
    if (found === 'method') return fail(405, 'Method not allowed: every endpoint takes POST');
    const caller = authenticate(this.state, request, region as GovernanceRegion);
    if ('reply' in caller) return caller.reply;
    return this.api.run(found, { ...request, path }, { ...caller, assumptions: this.assumptions });
  }
}
