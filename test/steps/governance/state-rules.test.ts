import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  NotFoundError,
  PermissionError,
  ProviderError,
  ToolstepsError,
} from '../../../src/errors/index.js';
import { resetOnce } from '../../support/faults.js';
import { type GovernanceFixture, governanceFixture, seed } from './governance-fixture.js';

const project = seed.projectId;

describe('the states table and rules of the governance API', () => {
  let fx: GovernanceFixture;
  const state = () => fx.sandbox.governance.state;
  const members = () => state().projects.get(project)!.members;
  /** Remove User on the seeded member, and the output it answers when the member is gone (by it or before it). */
  const removeMember = () => fx.invoke('governance.remove_user', { user_id: seed.users.member.id });
  const memberRemoved = (alreadyDone: boolean) => ({
    removed: true,
    already_done: alreadyDone,
    user_id: seed.users.member.id,
    project_id: project,
  });
  beforeEach(async () => {
    fx = await governanceFixture();
  });
  afterEach(async () => {
    await fx.close();
  });

  it('no invite -> invite exists: someone outside the organization gets an invite with an invite_code (status invited: the answer is the same for a member)', async () => {
    const result = await fx.invoke('governance.invite_user', {
      email: 'Dana@NewHire.example',
      role: 'viewer',
    });
    expect(result.output).toMatchObject({
      status: 'invited',
      user_id: null,
      role: 'viewer',
      project_id: project,
    });
    expect(result.variables).toMatchObject({ status: 'invited', invite_code: result.output.invite_code });
    expect(state().invites.get(result.output.invite_code as string)).toMatchObject({
      status: 'pending',
      email: 'dana@newhire.example',
      role: 'viewer',
    });
    expect(state().userByEmail('dana@newhire.example')).toBeUndefined();
  });

  it('no invite -> accepted automatically: an organization member joins the project at once (assumption: the answer says accepted and user_id)', async () => {
    const result = await fx.invoke('governance.invite_user', {
      email: seed.users.orgMember.email,
      role: 'editor',
    });
    expect(result.output).toMatchObject({
      status: 'accepted',
      user_id: seed.users.orgMember.id,
      role: 'editor',
    });
    expect(members().get(seed.users.orgMember.id)).toBe('editor');
    // An accepted invite is no longer pending, so it cannot be deleted.
    await expect(
      fx.invoke('governance.delete_invite', { invite_code: result.output.invite_code }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('no invite -> accepted automatically, with the answer the spec shows ({invite_code} only): status invited, and the member joined', async () => {
    fx.sandbox.governance.assumptions.member_invite_answer = 'invite_code_only';
    const result = await fx.invoke('governance.invite_user', {
      email: seed.users.orgMember.email,
      role: 'editor',
    });
    // Nothing in the answer says accepted: the step does not claim it, nor that the invite is pending.
    expect(result.output).toMatchObject({ status: 'invited', user_id: null, role: 'editor' });
    expect(result.output.invite_code).toEqual(expect.any(String));
    expect(members().get(seed.users.orgMember.id)).toBe('editor');
    // Someone outside the organization gets the same answer, and the same status.
    const outsider = await fx.invoke('governance.invite_user', {
      email: 'eve@outside.example',
      role: 'viewer',
    });
    expect(outsider.output).toMatchObject({ status: 'invited', user_id: null });
  });

  it('a pending invite accepted by the invitee (sandbox hook) makes them a member of the project and organization', async () => {
    const invite = await fx.invoke('governance.invite_user', {
      email: 'dana@newhire.example',
      role: 'editor',
    });
    const dana = fx.sandbox.governance.acceptInvite(invite.output.invite_code as string);
    expect(members().get(dana.id)).toBe('editor');
    expect(state().organizations.get(seed.organizationId)!.members.has(dana.id)).toBe(true);
    await expect(
      fx.invoke('governance.delete_invite', { invite_code: invite.output.invite_code }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await fx.invoke('governance.update_user_role', { user_id: dana.id, role: 'viewer' });
    expect(members().get(dana.id)).toBe('viewer');
  });

  it('invite exists -> no invite: Delete Project Invite with a valid code; the same code again is not found', async () => {
    const code = await fx.invitePending();
    await fx.invoke('governance.delete_invite', { invite_code: code });
    expect(state().invites.has(code)).toBe(false);
    const again = fx.invoke('governance.delete_invite', { invite_code: code });
    await expect(again).rejects.toBeInstanceOf(NotFoundError);
    await expect(again).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
      message: expect.stringContaining('Only pending invites'),
    });
  });

  it("rule 1: an invite's role cannot be changed in place, so a second invite for a pending email is a conflict (assumption: 409)", async () => {
    await fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'viewer' });
    const second = fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'editor' });
    await expect(second).rejects.toBeInstanceOf(ProviderError);
    await expect(second).rejects.toMatchObject({ code: 'conflict', status: 409 });
    const pending = [...state().invites.values()].filter((invite) => invite.email === 'dana@newhire.example');
    expect(pending.map((invite) => invite.role)).toEqual(['viewer']);
  });

  it('Change Invite Role leaves exactly one pending invite, with the new role and a new code', async () => {
    const invite = await fx.invoke('governance.invite_user', {
      email: 'dana@newhire.example',
      role: 'viewer',
    });
    const changed = await fx.invoke('governance.change_invite_role', {
      invite_code: invite.output.invite_code,
      email: 'dana@newhire.example',
      role: 'editor',
    });
    const pending = [...state().invites.values()].filter((entry) => entry.email === 'dana@newhire.example');
    expect(pending).toEqual([
      expect.objectContaining({ code: changed.output.invite_code, role: 'editor', status: 'pending' }),
    ]);
    expect(changed.variables).toMatchObject({ previous_invite_code: invite.output.invite_code });
  });

  it('Change Invite Role with an unknown code changes nothing and sends no invite', async () => {
    const attempt = fx.invoke('governance.change_invite_role', {
      invite_code: 'no-such-invite',
      email: 'dana@newhire.example',
      role: 'editor',
    });
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    await expect(attempt).rejects.toMatchObject({
      outcome: 'refused',
      context: { step_outcome: 'nothing_changed' },
    });
    expect(fx.sent().map((request) => request.path)).toEqual(['/au/latest/auth/invite/delete']);
  });

  it('Change Invite Role says plainly when the old invite is gone and the new one was not created', async () => {
    const code = await fx.invitePending();
    fx.sandbox.faults.add({
      target: 'governance',
      pathIncludes: '/invite/create',
      count: 1,
      // A definite refusal: the platform says it did not create the invite.
      action: { kind: 'status', status: 422, body: { message: 'Email domain is blocked' } },
    });
    const error = await fx
      .invoke('governance.change_invite_role', {
        invite_code: code,
        email: 'dana@newhire.example',
        role: 'editor',
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolstepsError);
    const failure = error as ToolstepsError;
    expect(failure.code).toBe('partial_failure');
    expect(failure.retryable).toBe(false);
    expect(failure.message).toContain(
      `the old invite ${code} WAS DELETED, and the new invite was NOT created`,
    );
    expect(failure.message).toContain('Invite User with email "dana@newhire.example" and role "editor"');
    expect(failure.outcome).toBe('refused');
    expect(failure.context).toMatchObject({
      step_outcome: 'old_invite_deleted_new_invite_not_created',
      deleted_invite_code: code,
      email: 'dana@newhire.example',
      role: 'editor',
      retry: { step: 'governance.invite_user', input: { email: 'dana@newhire.example', role: 'editor' } },
      causeCode: 'provider_rejected',
    });
    expect(failure.status).toBe(422);
    expect(failure.cause).toBeInstanceOf(ProviderError);
    // The emulator state matches the message.
    expect(fx.sent().filter((request) => request.path.endsWith('/invite/create'))).toHaveLength(2);
    expect([...state().invites.values()].filter((entry) => entry.email === 'dana@newhire.example')).toEqual(
      [],
    );
    // The retry the error names finishes the change.
    const retried = await fx.invoke('governance.invite_user', {
      email: 'dana@newhire.example',
      role: 'editor',
    });
    expect(retried.output.status).toBe('invited');
  });

  it('Change Invite Role says the new invite may exist when the answer to the create was lost', async () => {
    const invite = await fx.invoke('governance.invite_user', {
      email: 'dana@newhire.example',
      role: 'viewer',
    });
    fx.sandbox.faults.add(resetOnce({ target: 'governance', pathIncludes: '/invite/create' }));
    const error = (await fx
      .invoke('governance.change_invite_role', {
        invite_code: invite.output.invite_code,
        email: 'dana@newhire.example',
        role: 'editor',
      })
      .catch((caught: unknown) => caught)) as ToolstepsError;
    expect(error.code).toBe('partial_failure');
    expect(error.message).toContain(
      'WAS DELETED, and the new invite for dana@newhire.example may or may not have been created',
    );
    expect(error.outcome).toBe('unknown');
    expect(error.context).toMatchObject({ step_outcome: 'old_invite_deleted_new_invite_unknown' });
    // It was created: the emulator acted before the connection dropped, and nothing was replayed.
    const pending = [...state().invites.values()].filter((entry) => entry.email === 'dana@newhire.example');
    expect(pending.map((entry) => entry.role)).toEqual(['editor']);
  });

  it('inviting someone already on the project is a conflict, not a second membership', async () => {
    await expect(
      fx.invoke('governance.invite_user', { email: seed.users.member.email, role: 'admin' }),
    ).rejects.toMatchObject({ code: 'conflict', status: 409 });
    expect(members().get(seed.users.member.id)).toBe('viewer');
  });

  it('Update User Role changes the role of a member; an unknown user is NotFoundError', async () => {
    await fx.invoke('governance.update_user_role', { user_id: seed.users.member.id, role: 'admin' });
    expect(members().get(seed.users.member.id)).toBe('admin');
    await expect(
      fx.invoke('governance.update_user_role', { user_id: 'usr-nobody', role: 'viewer' }),
    ).rejects.toMatchObject({ name: 'NotFoundError', code: 'not_found', status: 404 });
    // Carol is in the organization but not on this project.
    await expect(
      fx.invoke('governance.update_user_role', { user_id: seed.users.orgMember.id, role: 'viewer' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('Remove User takes the member off the project; a second removal is not found', async () => {
    const removed = await removeMember();
    expect(removed.output).toEqual(memberRemoved(false));
    expect(members().has(seed.users.member.id)).toBe(false);
    await expect(removeMember()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('Remove User leaves organization membership alone, even from the last project: keys keep working', async () => {
    // Bob's only project is the default one.
    await removeMember();
    expect(state().organizations.get(seed.organizationId)!.members.has(seed.users.member.id)).toBe(true);
    // His key still authenticates in the organization's region.
    const created = await fx.invoke(
      'governance.create_project',
      { name: 'Still here', organization_id: seed.organizationId },
      'member',
    );
    expect(created.output.project_id).toEqual(expect.any(String));
    // Still in the organization, so a new invite adds him back at once.
    const reinvite = await fx.invoke('governance.invite_user', {
      email: seed.users.member.email,
      role: 'viewer',
    });
    expect(reinvite.output).toMatchObject({ status: 'accepted', user_id: seed.users.member.id });
  });

  it('an unknown project or organization is NotFoundError', async () => {
    await fx.connect('ghost', { apiKey: seed.adminKey, projectId: 'prj-does-not-exist' });
    await expect(
      fx.invoke('governance.invite_user', { email: 'x@else.example', role: 'viewer' }, 'ghost'),
    ).rejects.toMatchObject({
      name: 'NotFoundError',
      status: 404,
      message: expect.stringContaining('projectId'),
    });
    await expect(
      fx.invoke('governance.create_project', { name: 'P', organization_id: 'org-elsewhere' }),
    ).rejects.toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('organization_id') });
  });

  it('Create Project makes the creator an admin of the new project', async () => {
    const created = await fx.invoke(
      'governance.create_project',
      { name: 'New', organization_id: seed.organizationId },
      'member',
    );
    const projectId = created.output.project_id as string;
    expect(state().projects.get(projectId)!.members.get(seed.users.member.id)).toBe('admin');
    await fx.connect('bob-new', { apiKey: seed.memberKey, projectId });
    const invite = await fx.invoke(
      'governance.invite_user',
      { email: 'x@else.example', role: 'viewer' },
      'bob-new',
    );
    expect(invite.output.project_id).toBe(projectId);
  });

  describe('permissions', () => {
    const adminOperations: [string, () => Record<string, unknown>][] = [
      ['governance.invite_user', () => ({ email: 'x@else.example', role: 'viewer' })],
      ['governance.update_user_role', () => ({ user_id: seed.users.member.id, role: 'admin' })],
      ['governance.delete_invite', () => ({ invite_code: 'any-code' })],
      ['governance.remove_user', () => ({ user_id: seed.users.admin.id })],
      [
        'governance.change_invite_role',
        () => ({ invite_code: 'any-code', email: 'x@else.example', role: 'admin' }),
      ],
    ];

    it.each(adminOperations)(
      '%s with a non-admin key is a PermissionError naming Admin',
      async (stepId, input) => {
        const error = await fx.invokeUnchecked(stepId, input(), 'member').catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(PermissionError);
        expect(error).toMatchObject({
          code: 'permission_denied',
          status: 403,
          message: expect.stringContaining('needs the Admin permission on the project'),
          context: { requiredPermission: 'Admin' },
        });
      },
    );

    it('Create Project needs only a valid key', async () => {
      const created = await fx.invoke(
        'governance.create_project',
        { name: 'Viewer made this', organization_id: seed.organizationId },
        'member',
      );
      expect(created.output.project_id).toEqual(expect.any(String));
    });

    it('a project admin who is not an organization admin has the Admin permission on that project only', async () => {
      await fx.invoke('governance.update_user_role', { user_id: seed.users.member.id, role: 'admin' });
      await fx.invoke('governance.invite_user', { email: 'x@else.example', role: 'viewer' }, 'member');
      await fx.connect('bob-research', { apiKey: seed.memberKey, projectId: seed.researchProjectId });
      // Bob is in the organization, but the research project is not his to administer.
      await expect(
        fx.invoke('governance.invite_user', { email: 'y@else.example', role: 'viewer' }, 'bob-research'),
      ).rejects.toBeInstanceOf(PermissionError);
    });
  });

  describe('deactivation', () => {
    it('stops every key of the user on the very next request, with an AuthError saying so', async () => {
      const extraKey = fx.sandbox.governance.createKey(seed.users.member.id);
      await fx.connect('bob-extra', { apiKey: extraKey });
      await fx.invoke(
        'governance.create_project',
        { name: 'Before', organization_id: seed.organizationId },
        'member',
      );
      await fx.invoke(
        'governance.create_project',
        { name: 'Before 2', organization_id: seed.organizationId },
        'bob-extra',
      );

      fx.sandbox.governance.deactivateUser(seed.users.member.id);

      for (const connection of ['member', 'bob-extra']) {
        const error = await fx
          .invoke(
            'governance.create_project',
            { name: 'After', organization_id: seed.organizationId },
            connection,
          )
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AuthError);
        expect(error).toMatchObject({
          status: 401,
          retryable: false,
          context: { reason: 'key_deactivated_or_invalid' },
        });
        expect((error as Error).message).toContain('It was deactivated');
        expect((error as Error).message).toContain('API key deactivated: its user has been deactivated');
      }
      // 401 is final: no replay.
      expect(fx.sent().filter((request) => request.rawBody.includes('"After"'))).toHaveLength(2);
      expect([...fx.sandbox.governance.state.projects.values()].map((entry) => entry.name)).not.toContain(
        'After',
      );
    });

    it('leaves other users alone, and a reactivated user works again', async () => {
      fx.sandbox.governance.deactivateUser(seed.users.member.id);
      await fx.invoke('governance.invite_user', { email: 'x@else.example', role: 'viewer' });
      fx.sandbox.governance.reactivateUser(seed.users.member.id);
      await fx.invoke(
        'governance.create_project',
        { name: 'Back', organization_id: seed.organizationId },
        'member',
      );
    });

    it('a key made by the test hook for a new organization admin works at once', async () => {
      const erin = fx.sandbox.governance.addUser({
        email: 'erin@acme.example',
        organizationId: seed.organizationId,
        orgAdmin: true,
      });
      await fx.connect('erin', { apiKey: fx.sandbox.governance.createKey(erin.id) });
      const invite = await fx.invoke(
        'governance.invite_user',
        { email: 'x@else.example', role: 'admin' },
        'erin',
      );
      expect(invite.output.status).toBe('invited');
    });
  });

  describe('replays', () => {
    it('Update User Role is idempotent: a 502 is retried and succeeds', async () => {
      fx.sandbox.faults.add({
        target: 'governance',
        count: 1,
        action: { kind: 'status', status: 502, body: { message: 'Bad gateway' } },
      });
      const result = await fx.invoke('governance.update_user_role', {
        user_id: seed.users.member.id,
        role: 'editor',
      });
      expect(result.meta.attempts).toBe(2);
      expect(members().get(seed.users.member.id)).toBe('editor');
    });

    it('Create Project is not replayed after its answer was lost, and says the outcome is unknown', async () => {
      fx.sandbox.faults.add(resetOnce({ target: 'governance' }));
      const before = fx.sandbox.governance.state.projects.size;
      const error = (await fx
        .invoke('governance.create_project', { name: 'Once', organization_id: seed.organizationId })
        .catch((caught: unknown) => caught)) as ToolstepsError;
      expect(error.code).toBe('network_error');
      expect(error.outcome).toBe('unknown');
      expect(fx.sent()).toHaveLength(1);
      expect(fx.sandbox.governance.state.projects.size).toBe(before + 1);
    });

    it('Delete Project Invite succeeds with already_done when its replay finds the invite it deleted gone', async () => {
      const code = await fx.invitePending();
      fx.sandbox.faults.add(resetOnce({ target: 'governance', pathIncludes: '/invite/delete' }));
      const result = await fx.invoke('governance.delete_invite', { invite_code: code });
      expect(result.output).toEqual({
        deleted: true,
        already_done: true,
        invite_code: code,
        project_id: project,
      });
      expect(result.variables).toMatchObject({ already_done: true });
      expect(result.meta.attempts).toBe(2);
      expect(fx.sent().filter((request) => request.path.endsWith('/invite/delete'))).toHaveLength(2);
      expect(state().invites.has(code)).toBe(false);
    });

    it('Delete Project Invite reports already_done false when its own answer arrived', async () => {
      const invite = await fx.invoke('governance.invite_user', {
        email: 'dana@newhire.example',
        role: 'viewer',
      });
      const result = await fx.invoke('governance.delete_invite', { invite_code: invite.output.invite_code });
      expect(result.output).toMatchObject({ deleted: true, already_done: false });
    });

    it('Remove User succeeds with already_done when its replay finds the user it removed gone', async () => {
      fx.sandbox.faults.add(
        resetOnce({ target: 'governance', pathIncludes: `/users/${seed.users.member.id}/delete` }),
      );
      const result = await removeMember();
      expect(result.output).toEqual(memberRemoved(true));
      expect(result.meta.attempts).toBe(2);
      expect(members().has(seed.users.member.id)).toBe(false);
    });

    it('Remove User succeeds with already_done after a 502 answered once the platform had acted', async () => {
      fx.sandbox.faults.add({
        target: 'governance',
        pathIncludes: `/users/${seed.users.member.id}/delete`,
        count: 1,
        action: { kind: 'status', status: 502, when: 'after', body: { message: 'Bad gateway' } },
      });
      const result = await removeMember();
      expect(result.output).toMatchObject({ removed: true, already_done: true });
      expect(members().has(seed.users.member.id)).toBe(false);
    });

    it('Remove User of a non-member with no earlier attempt is still not found', async () => {
      await expect(
        fx.invoke('governance.remove_user', { user_id: seed.users.orgMember.id }),
      ).rejects.toMatchObject({ code: 'not_found', status: 404 });
    });

    it('Invite User is not replayed after a 502', async () => {
      fx.sandbox.faults.add({ target: 'governance', count: 1, action: { kind: 'status', status: 502 } });
      await expect(
        fx.invoke('governance.invite_user', { email: 'x@else.example', role: 'viewer' }),
      ).rejects.toMatchObject({ code: 'provider_error', status: 502, outcome: 'unknown' });
      expect(fx.sent()).toHaveLength(1);
    });
  });
});
