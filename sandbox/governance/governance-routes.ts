import type { RouteRequest, Router } from '../router.js';
import { json, objectBody, type Reply } from '../sandbox-http.js';
import { adminOfProject, type GovernanceCaller, type ProjectCaller } from './governance-auth.js';
import { fail, roleOf } from './governance-permissions.js';

type CallerRequest = RouteRequest<GovernanceCaller>;

/** Runs a project operation only for an Admin of the project named in the Authorization header. */
function withAdmin(handler: (request: CallerRequest, caller: ProjectCaller) => Reply) {
  return (request: CallerRequest): Reply => {
    const caller = adminOfProject(request.caller);
    return 'reply' in caller ? caller.reply : handler(request, caller);
  };
}

/** A project in an organization the caller belongs to, in this region.*/
function createProject(request: CallerRequest): Reply {
  const caller = request.caller;
  const { state } = caller;

  const body = objectBody(request);
  if (!body) return fail(422, 'A JSON object body is required');
  const { name, description, organization_id: organizationId } = body;
  if (typeof name !== 'string' || name.trim() === '') return fail(422, 'name is required');
  if (description !== undefined && typeof description !== 'string') {
    return fail(422, 'description must be a string');
  }
  if (typeof organizationId !== 'string' || organizationId === '') {
    return fail(422, 'organization_id is required');
  }
  const organization = state.organizations.get(organizationId);
  const belongs =
    organization?.region === caller.region &&
    (organization.members.has(caller.user.id) || organization.admins.has(caller.user.id));
  if (!organization || !belongs) return fail(404, 'Organization not found');
  const project = state.addProject({
    name,
    description: description ?? '',
    organizationId,
    owner: caller.user.id,
  });
  return json(200, { project_id: project.id });
}

/** Invites by email with a role: pending for outsiders, accepted at once for organization members. */
function createInvite(request: CallerRequest, caller: ProjectCaller): Reply {
  const { state } = caller;

  const body = objectBody(request);
  if (!body) return fail(422, 'A JSON object body is required');
  const { email, permissions } = body;
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    return fail(422, 'email must be an email address');
  }
  const role = roleOf(permissions);
  if (typeof role !== 'string') return role.reply;
  const { project } = caller;
  const organization = state.organizations.get(project.organizationId)!;
  const invitee = state.userByEmail(email);
  if (invitee && project.members.has(invitee.id)) {
    return fail(409, `${email} is already a member of this project; update their role instead`);
  }
  // Spec rule 1: an invite's role cannot be changed in place. What a second invite does is
  // not shown: refused (409) or a replacement, as assumed (governance-assumptions.ts).
  const pending = state.pendingInvite(project.id, email);
  if (pending && caller.assumptions.second_invite === 'conflict') {
    return fail(
      409,
      `A pending invite for ${email} already exists on this project; delete it and invite again to change its role`,
    );
  }
  if (pending) state.invites.delete(pending.code);
  const code = state.newId();
  if (invitee && (organization.members.has(invitee.id) || organization.admins.has(invitee.id))) {
    // States table: an invitee already in the organization is accepted automatically.
    // The spec does not show this answer; by assumption the sandbox adds `accepted` and the new member's `user_id`.
    state.addMember(project.id, invitee.id, role);
    state.invites.set(code, {
      code,
      projectId: project.id,
      email: invitee.email,
      role,
      status: 'accepted',
    });
    return caller.assumptions.member_invite_answer === 'accepted'
      ? json(200, { invite_code: code, accepted: true, user_id: invitee.id })
      : json(200, { invite_code: code });
  }
  state.invites.set(code, {
    code,
    projectId: project.id,
    email: email.toLowerCase(),
    role,
    status: 'pending',
  });
  return json(200, { invite_code: code });
}

/** Sets a project member's role. */
function updateUserRole(request: CallerRequest, caller: ProjectCaller): Reply {
  const userId = request.params.user_id ?? '';
  if (!caller.project.members.has(userId)) return fail(404, 'User not found in this project');
  const role = roleOf(objectBody(request)?.permissions);
  if (typeof role !== 'string') return role.reply;
  caller.project.members.set(userId, role);
  return json(200, {});
}

/** Deletes a pending invite of this project. */
function deleteInvite(request: CallerRequest, caller: ProjectCaller): Reply {
  const { state } = caller;

  const code = objectBody(request)?.invite_code;
  if (typeof code !== 'string' || code === '') return fail(422, 'invite_code is required');
  const invite = state.invites.get(code);
  // States table: only an existing (pending) invite of this project can be deleted.
  if (!invite || invite.projectId !== caller.project.id || invite.status !== 'pending') {
    return fail(404, 'Invite not found');
  }
  state.invites.delete(code);
  return json(200, {});
}

/** Removes a member from this project. */
function removeUser(request: CallerRequest, caller: ProjectCaller): Reply {
  const { state } = caller;

  if (!objectBody(request)) return fail(422, 'A JSON object body is required (send {})');
  const userId = request.params.user_id ?? '';
  if (!caller.project.members.has(userId)) return fail(404, 'User not found in this project');
  state.removeMember(caller.project.id, userId);
  return json(200, {});
}

/** The five operations of the governance API; every one is a POST. */
export function governanceRoutes(router: Router<GovernanceCaller>): void {
  router
    .on('POST', '/latest/projects/create', createProject)
    .on('POST', '/latest/auth/invite/create', withAdmin(createInvite))
    .on('POST', '/latest/auth/users/:user_id/update', withAdmin(updateUserRole))
    .on('POST', '/latest/auth/invite/delete', withAdmin(deleteInvite))
    .on('POST', '/latest/auth/users/:user_id/delete', withAdmin(removeUser));
}
