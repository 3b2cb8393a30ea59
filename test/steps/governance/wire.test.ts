import { describe, expect, it } from 'vitest';
import { PERMISSION_SET, permissionsFor } from '../../../steps/governance/lib/roles.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { governanceFixture, seed } from './governance-fixture.js';

const key = seed.adminKey;
const project = seed.projectId;

describe('governance requests on the wire', () => {
  const fx = useFixture(governanceFixture);

  it('Create Project sends "Bearer :<api_key>" with the empty project part', async () => {
    const result = await fx.invoke('governance.create_project', {
      name: 'Support agents',
      description: 'Answers tickets.',
      organization_id: seed.organizationId,
    });
    expect(fx.sent()).toEqual([
      {
        method: 'POST',
        path: '/au/latest/projects/create',
        authorization: `Bearer :${key}`,
        contentType: 'application/json',
        rawBody: JSON.stringify({
          name: 'Support agents',
          description: 'Answers tickets.',
          organization_id: seed.organizationId,
        }),
      },
    ]);
    expect(result.output.project_id).toEqual(expect.any(String));
    expect(fx.sandbox.governance.state.projects.get(result.output.project_id as string)?.name).toBe(
      'Support agents',
    );
  });

  it('Create Project sends an empty description when none is given', async () => {
    await fx.invoke(
      'governance.create_project',
      { name: 'Bare', organization_id: seed.organizationId },
      'org',
    );
    expect(JSON.parse(fx.sent()[0]!.rawBody)).toEqual({
      name: 'Bare',
      description: '',
      organization_id: seed.organizationId,
    });
  });

  it('Invite User sends "Bearer <project_id>:<api_key>" and the permissions object', async () => {
    await fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'viewer' });
    expect(fx.sent()).toEqual([
      {
        method: 'POST',
        path: '/au/latest/auth/invite/create',
        authorization: `Bearer ${project}:${key}`,
        contentType: 'application/json',
        rawBody: JSON.stringify({
          permissions: { items: { serviceDefault: { actions: { 'role:viewer': true } } } },
          email: 'dana@newhire.example',
        }),
      },
    ]);
  });

  it('Update User Role sends "<project_id>:<api_key>" with no Bearer prefix, as the spec shows it', async () => {
    const result = await fx.invoke('governance.update_user_role', {
      user_id: seed.users.member.id,
      role: 'editor',
    });
    expect(fx.sent()).toEqual([
      {
        method: 'POST',
        path: `/au/latest/auth/users/${seed.users.member.id}/update`,
        authorization: `${project}:${key}`,
        contentType: 'application/json',
        rawBody: JSON.stringify({
          permissions: { items: { serviceDefault: { actions: { 'role:editor': true } } } },
        }),
      },
    ]);
    expect(result.output).toEqual({
      updated: true,
      user_id: seed.users.member.id,
      role: 'editor',
      project_id: project,
    });
  });

  it('Delete Project Invite sends "Bearer <project_id>:<api_key>" and the invite_code', async () => {
    const code = await fx.invitePending();
    const result = await fx.invoke('governance.delete_invite', { invite_code: code });
    expect(fx.sent()[1]).toEqual({
      method: 'POST',
      path: '/au/latest/auth/invite/delete',
      authorization: `Bearer ${project}:${key}`,
      contentType: 'application/json',
      rawBody: JSON.stringify({ invite_code: code }),
    });
    expect(result.output).toEqual({
      deleted: true,
      already_done: false,
      invite_code: code,
      project_id: project,
    });
  });

  it('Remove User sends "Bearer <project_id>:<api_key>" and an empty JSON object', async () => {
    const result = await fx.invoke('governance.remove_user', { user_id: seed.users.member.id });
    expect(fx.sent()).toEqual([
      {
        method: 'POST',
        path: `/au/latest/auth/users/${seed.users.member.id}/delete`,
        authorization: `Bearer ${project}:${key}`,
        contentType: 'application/json',
        rawBody: '{}',
      },
    ]);
    expect(result.output).toEqual({
      removed: true,
      already_done: false,
      user_id: seed.users.member.id,
      project_id: project,
    });
  });

  it('Change Invite Role deletes the invite, then creates it again with the new role', async () => {
    const code = await fx.invitePending();
    const changed = await fx.invoke('governance.change_invite_role', {
      invite_code: code,
      email: 'dana@newhire.example',
      role: 'admin',
    });
    expect(fx.sent().slice(1)).toEqual([
      {
        method: 'POST',
        path: '/au/latest/auth/invite/delete',
        authorization: `Bearer ${project}:${key}`,
        contentType: 'application/json',
        rawBody: JSON.stringify({ invite_code: code }),
      },
      {
        method: 'POST',
        path: '/au/latest/auth/invite/create',
        authorization: `Bearer ${project}:${key}`,
        contentType: 'application/json',
        rawBody: JSON.stringify({
          permissions: { items: { serviceDefault: { actions: { admin: true } } } },
          email: 'dana@newhire.example',
        }),
      },
    ]);
    expect(changed.output).toMatchObject({ previous_invite_code: code, status: 'invited', role: 'admin' });
    expect(changed.output.invite_code).not.toBe(code);
  });

  it('a user id with characters a path allows is still encoded into exactly one segment', async () => {
    // Ids like "idp|42" exist on some platforms; "|" and ":" are allowed, and encoded.
    fx.sandbox.governance.addUser({
      id: 'idp|42:x',
      email: 'pipe@acme.example',
      organizationId: seed.organizationId,
    });
    fx.sandbox.governance.state.addMember(project, 'idp|42:x', 'viewer');
    await fx.invoke('governance.update_user_role', { user_id: 'idp|42:x', role: 'admin' });
    expect(fx.sent()[0]!.path).toBe('/au/latest/auth/users/idp%7C42%3Ax/update');
    expect(fx.sandbox.governance.state.projects.get(project)!.members.get('idp|42:x')).toBe('admin');
  });
});

describe('the permissions object', () => {
  it('uses the spec\'s permission-set name, "serviceDefault", held in one constant', () => {
    expect(PERMISSION_SET).toBe('serviceDefault');
  });

  it.each([
    ['admin', 'admin'],
    ['editor', 'role:editor'],
    ['viewer', 'role:viewer'],
  ] as const)('role %s grants exactly the action %s', (role, action) => {
    expect(permissionsFor(role)).toEqual({ items: { serviceDefault: { actions: { [action]: true } } } });
  });

  describe('on the wire, for each role', () => {
    const fx = useFixture(governanceFixture);

    it.each([
      ['admin', 'admin'],
      ['editor', 'role:editor'],
      ['viewer', 'role:viewer'],
    ] as const)(
      '%s: invite and role update both send {items: {serviceDefault: {actions: {"%s": true}}}}',
      async (role, action) => {
        const expected = { items: { serviceDefault: { actions: { [action]: true } } } };
        const invite = await fx.invoke('governance.invite_user', { email: `new-${role}@else.example`, role });
        await fx.invoke('governance.update_user_role', { user_id: seed.users.member.id, role });
        const [inviteRequest, updateRequest] = fx.sent();
        expect(JSON.parse(inviteRequest!.rawBody).permissions).toEqual(expected);
        expect(JSON.parse(updateRequest!.rawBody).permissions).toEqual(expected);
        // The emulator read the role back out of the object.
        expect(fx.sandbox.governance.state.invites.get(invite.output.invite_code as string)?.role).toBe(role);
        expect(fx.sandbox.governance.state.projects.get(project)!.members.get(seed.users.member.id)).toBe(
          role,
        );
      },
    );
  });
});
