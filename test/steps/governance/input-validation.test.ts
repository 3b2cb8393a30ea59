import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors/index.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { governanceFixture, seed } from './governance-fixture.js';

const BAD_IDS = [
  'a/b',
  '../invite/delete',
  '..',
  '.',
  'a..b',
  'a?x=1',
  'a#frag',
  'has space',
  'tab\there',
  'new\nline',
  'a\\b',
  '%2F',
  '',
];

describe('bad input is refused with nothing sent', () => {
  const fx = useFixture(governanceFixture);

  const refused = async (stepId: string, input: unknown, connection?: string) => {
    const error = await fx.invokeUnchecked(stepId, input, connection).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect(fx.sent()).toEqual([]);
    return error as InputError;
  };

  it.each(BAD_IDS)('user_id %j in Update User Role and Remove User', async (userId) => {
    const error = await refused('governance.update_user_role', { user_id: userId, role: 'viewer' });
    expect(error.fields.map((issue) => issue.path)).toContain('user_id');
    await refused('governance.remove_user', { user_id: userId });
  });

  it.each(BAD_IDS)('invite_code %j in Delete Project Invite and Change Invite Role', async (code) => {
    const error = await refused('governance.delete_invite', { invite_code: code });
    expect(error.fields.map((issue) => issue.path)).toContain('invite_code');
    await refused('governance.change_invite_role', {
      invite_code: code,
      email: 'x@else.example',
      role: 'viewer',
    });
  });

  it('a bad organization_id, an empty name, an invalid email and an unknown role', async () => {
    await refused('governance.create_project', { name: 'P', organization_id: 'org/../x' });
    await refused('governance.create_project', { name: '   ', organization_id: seed.organizationId });
    await refused('governance.invite_user', { email: 'not-an-email', role: 'viewer' });
    await refused('governance.invite_user', { email: 'x@else.example', role: 'owner' });
    await refused('governance.update_user_role', { user_id: seed.users.member.id, role: 'role:viewer' });
  });

  it('project operations on a connection without a projectId', async () => {
    const error = await refused('governance.invite_user', { email: 'x@else.example', role: 'viewer' }, 'org');
    expect(error.message).toContain('has no projectId');
    await refused('governance.remove_user', { user_id: seed.users.member.id }, 'org');
    // Create Project needs none.
    await fx.invoke('governance.create_project', { name: 'P', organization_id: seed.organizationId }, 'org');
    expect(fx.sent()).toHaveLength(1);
  });

  it.each(['prj:other', 'prj other', 'prj\r\nX-Injected: 1', '../prj', ''])(
    'a projectId %j that could change the Authorization header',
    async (projectId) => {
      await fx.connect('bad-project', { apiKey: seed.adminKey, projectId });
      const error = await refused(
        'governance.invite_user',
        { email: 'x@else.example', role: 'viewer' },
        'bad-project',
      );
      expect(error.fields.map((issue) => issue.path)).toContain('projectId');
    },
  );

  it('an unknown region', async () => {
    await fx.connect('mars', {
      apiKey: seed.adminKey,
      region: 'mars',
      baseUrl: fx.sandbox.baseUrl('governance', 'au'),
    });
    const error = await refused(
      'governance.create_project',
      { name: 'P', organization_id: seed.organizationId },
      'mars',
    );
    expect(error.fields.map((issue) => issue.path)).toContain('region');
  });
});
