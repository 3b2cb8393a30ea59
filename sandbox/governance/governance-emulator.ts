import { randomUUID } from 'node:crypto';
import type { Emulator } from '../emulator.js';
import { Router } from '../router.js';
import { json, type Reply, type SandboxRequest } from '../sandbox-http.js';
import {
  GOVERNANCE_REGIONS,
  type GovernanceRegion,
  GovernanceState,
  type ProjectRecord,
  type ProjectRole,
  type UserRecord,
} from './governance-state.js';

export interface GovernanceEmulatorOptions {
  /** Ids of projects, invites and keys; random UUIDs unless a test wants them predictable. */
  newId?: () => string;
}

/**
 * The platform's permission-set name as the spec gives it. The emulator is
 * the provider, so it keeps its own copy rather than trusting the client's.
 */
const PERMISSION_SET = 'serviceDefault';
const ACTION_ROLES: Record<string, ProjectRole> = {
  admin: 'admin',
  'role:editor': 'editor',
  'role:viewer': 'viewer',
};
const ROLE_RANK: ProjectRole[] = ['viewer', 'editor', 'admin'];

/** Every error of the platform is `{"message": "..."}` (provider facts). */
function fail(status: number, message: string): Reply {
  return json(status, { message });
}

interface Caller {
  user: UserRecord;
  region: GovernanceRegion;
  /** The project named before the colon of the Authorization header; empty for `Bearer :<key>`. */
  projectPart: string;
}

interface ProjectCaller extends Caller {
  project: ProjectRecord;
}

type Problem = { reply: Reply };

/** Reads the permissions object of the spec into one role, or explains what is wrong with it. */
function roleOf(permissions: unknown): ProjectRole | Problem {
  const invalid = (message: string) => ({ reply: fail(422, `permissions: ${message}`) });
  if (typeof permissions !== 'object' || permissions === null) return invalid('an object is required');
  const items = (permissions as { items?: unknown }).items;
  if (typeof items !== 'object' || items === null) return invalid('"items" must be an object');
  const names = Object.keys(items);
  const unknown = names.filter((name) => name !== PERMISSION_SET);
  if (unknown.length) return invalid(`unknown permission set "${unknown[0]}"; use "${PERMISSION_SET}"`);
  const actions = (items as Record<string, { actions?: unknown } | undefined>)[PERMISSION_SET]?.actions;
  if (typeof actions !== 'object' || actions === null) {
    return invalid(`"items.${PERMISSION_SET}.actions" must be an object`);
  }
  const granted: ProjectRole[] = [];
  for (const [action, value] of Object.entries(actions)) {
    const role = ACTION_ROLES[action];
    if (!role) return invalid(`unknown action "${action}"; allowed: ${Object.keys(ACTION_ROLES).join(', ')}`);
    if (typeof value !== 'boolean') return invalid(`action "${action}" must be true or false`);
    if (value) granted.push(role);
  }
  if (!granted.length) return invalid('no action is granted');
  // Several roles granted: the strongest one applies.
  return granted.sort((a, b) => ROLE_RANK.indexOf(b) - ROLE_RANK.indexOf(a))[0]!;
}

function bodyObject(request: SandboxRequest): Record<string, unknown> | undefined {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
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
  private readonly api = new Router();

  constructor(options: GovernanceEmulatorOptions = {}) {
    this.newId = options.newId ?? randomUUID;
    this.state = new GovernanceState(this.newId);
    this.routes();
  }

  reset(): void {
    this.state = new GovernanceState(this.newId);
  }

  /** Test hook: the identity provider deactivates a user. Their keys fail from the next request on. */
  deactivateUser(userId: string): void {
    this.requireUser(userId).active = false;
  }

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
    const caller = this.authenticate(request, region as GovernanceRegion);
    if ('reply' in caller) return caller.reply;
    return found.handler({ ...request, path, params: found.params, caller } as SandboxRequest);
  }

  /**
   * `Authorization: [Bearer ]<project_id>:<api_key>`. Checked on every request,
   * so deactivating a user takes effect on the very next one.
   */
  private authenticate(request: SandboxRequest, region: GovernanceRegion): Caller | Problem {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^(?:Bearer )?([^:\s]*):(\S+)$/.exec(header) : null;
    if (!match) {
      return {
        reply: fail(401, 'Missing or malformed Authorization header: expected <project_id>:<api_key>'),
      };
    }
    const [, projectPart = '', key = ''] = match;
    const userId = this.state.keys.get(key);
    const user = userId ? this.state.users.get(userId) : undefined;
    // Like some real platforms, the emulator echoes the credential it refused: clients must redact it.
    if (!user) return { reply: fail(401, `Invalid API key: ${key}`) };
    if (!user.active) {
      return {
        reply: fail(401, 'API key deactivated: its user has been deactivated in the identity provider'),
      };
    }
    // Each region is its own stack: a key only exists where its organization is hosted.
    if (!this.state.organizationsOf(user.id).some((organization) => organization.region === region)) {
      return { reply: fail(401, `Invalid API key: ${key}`) };
    }
    return { user, region, projectPart };
  }

  /** The project named in the Authorization header, visible to the caller, with the Admin permission. */
  private adminOfProject(caller: Caller): ProjectCaller | Problem {
    if (!caller.projectPart) {
      return {
        reply: fail(400, 'This operation needs a project: Authorization must be <project_id>:<api_key>'),
      };
    }
    const project = this.state.projects.get(caller.projectPart);
    const organization = project ? this.state.organizations.get(project.organizationId) : undefined;
    const visible =
      organization?.region === caller.region &&
      (organization.members.has(caller.user.id) || organization.admins.has(caller.user.id));
    if (!project || !organization || !visible) return { reply: fail(404, 'Project not found') };
    const admin = organization.admins.has(caller.user.id) || project.members.get(caller.user.id) === 'admin';
    if (!admin)
      return { reply: fail(403, 'Permission denied: Admin permission on this project is required') };
    return { ...caller, project };
  }

  private routes(): void {
    const callerOf = (request: SandboxRequest) => (request as SandboxRequest & { caller: Caller }).caller;
    const withAdmin =
      (handler: (request: SandboxRequest, caller: ProjectCaller) => Reply) => (request: SandboxRequest) => {
        const caller = this.adminOfProject(callerOf(request));
        return 'reply' in caller ? caller.reply : handler(request, caller);
      };

    this.api
      .on('POST', '/latest/projects/create', (request) => {
        const caller = callerOf(request);
        const body = bodyObject(request);
        if (!body) return fail(422, 'A JSON object body is required');
        const { name, description, organization_id: organizationId } = body;
        if (typeof name !== 'string' || name.trim() === '') return fail(422, 'name is required');
        if (description !== undefined && typeof description !== 'string') {
          return fail(422, 'description must be a string');
        }
        if (typeof organizationId !== 'string' || organizationId === '') {
          return fail(422, 'organization_id is required');
        }
        const organization = this.state.organizations.get(organizationId);
        const belongs =
          organization?.region === caller.region &&
          (organization.members.has(caller.user.id) || organization.admins.has(caller.user.id));
        if (!organization || !belongs) return fail(404, 'Organization not found');
        const project = this.state.addProject({
          name,
          description: description ?? '',
          organizationId,
          owner: caller.user.id,
        });
        return json(200, { project_id: project.id });
      })
      .on(
        'POST',
        '/latest/auth/invite/create',
        withAdmin((request, caller) => {
          const body = bodyObject(request);
          if (!body) return fail(422, 'A JSON object body is required');
          const { email, permissions } = body;
          if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) {
            return fail(422, 'email must be an email address');
          }
          const role = roleOf(permissions);
          if (typeof role !== 'string') return role.reply;
          const { project } = caller;
          const organization = this.state.organizations.get(project.organizationId)!;
          const invitee = this.state.userByEmail(email);
          if (invitee && project.members.has(invitee.id)) {
            return fail(409, `${email} is already a member of this project; update their role instead`);
          }
          // Spec rule 1: an invite's role cannot be changed in place, so a second invite is refused.
          if (this.state.pendingInvite(project.id, email)) {
            return fail(
              409,
              `A pending invite for ${email} already exists on this project; delete it and invite again to change its role`,
            );
          }
          const code = this.newId();
          if (invitee && (organization.members.has(invitee.id) || organization.admins.has(invitee.id))) {
            // States table: an invitee already in the organization is accepted automatically.
            // The spec does not show this answer; the sandbox adds `accepted` and the new member's `user_id`.
            this.state.addMember(project.id, invitee.id, role);
            this.state.invites.set(code, {
              code,
              projectId: project.id,
              email: invitee.email,
              role,
              status: 'accepted',
            });
            return json(200, { invite_code: code, accepted: true, user_id: invitee.id });
          }
          this.state.invites.set(code, {
            code,
            projectId: project.id,
            email: email.toLowerCase(),
            role,
            status: 'pending',
          });
          return json(200, { invite_code: code });
        }),
      )
      .on(
        'POST',
        '/latest/auth/users/:user_id/update',
        withAdmin((request, caller) => {
          const userId = request.params.user_id ?? '';
          if (!caller.project.members.has(userId)) return fail(404, 'User not found in this project');
          const role = roleOf(bodyObject(request)?.permissions);
          if (typeof role !== 'string') return role.reply;
          caller.project.members.set(userId, role);
          return json(200, {});
        }),
      )
      .on(
        'POST',
        '/latest/auth/invite/delete',
        withAdmin((request, caller) => {
          const code = bodyObject(request)?.invite_code;
          if (typeof code !== 'string' || code === '') return fail(422, 'invite_code is required');
          const invite = this.state.invites.get(code);
          // States table: only an existing (pending) invite of this project can be deleted.
          if (!invite || invite.projectId !== caller.project.id || invite.status !== 'pending') {
            return fail(404, 'Invite not found');
          }
          this.state.invites.delete(code);
          return json(200, {});
        }),
      )
      .on(
        'POST',
        '/latest/auth/users/:user_id/delete',
        withAdmin((request, caller) => {
          if (!bodyObject(request)) return fail(422, 'A JSON object body is required (send {})');
          const userId = request.params.user_id ?? '';
          if (!caller.project.members.has(userId)) return fail(404, 'User not found in this project');
          this.state.removeMember(caller.project.id, userId);
          return json(200, {});
        }),
      );
  }
}
