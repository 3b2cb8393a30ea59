import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { InvocationResult } from '../../../src/runtime/runtime.js';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { governanceFixture, seed } from './governance-fixture.js';

/** Every way an error can be shown: JSON, util.inspect (with hidden fields), and each cause's message and stack. */
function renderings(error: unknown): string[] {
  const texts = [JSON.stringify(error), inspect(error, { depth: null, showHidden: true }), String(error)];
  let current: unknown = error;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const record = current as { message?: unknown; stack?: unknown; context?: unknown; cause?: unknown };
    texts.push(String(record.message), String(record.stack), JSON.stringify(record.context ?? null));
    current = record.cause;
  }
  return texts;
}

describe('the API key never leaves the connection store', () => {
  const fx = useFixture(governanceFixture);

  const expectNoSecret = (value: unknown, secret: string) => {
    for (const text of renderings(value)) expect(text).not.toContain(secret);
  };

  it('not in an error whose body echoes the key back', async () => {
    const secret = 'sk-gov-not-a-real-key-0123456789';
    await fx.connect('wrong', { apiKey: secret });
    const error = await fx
      .invoke('governance.invite_user', { email: 'x@else.example', role: 'viewer' }, 'wrong')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'AuthError', status: 401 });
    // The emulator did put the key in its answer, and the transport redacted it.
    expect((error as Error).message).toContain('Invalid API key: [redacted]');
    expectNoSecret(error, secret);
  });

  it('not in permission, deactivation, not-found, conflict or partial-failure errors', async () => {
    const failures: unknown[] = [];
    const collect = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.unreachable('expected a failure'),
        (error: unknown) => failures.push(error),
      );
    await collect(fx.invoke('governance.remove_user', { user_id: seed.users.admin.id }, 'member'));
    await collect(fx.invoke('governance.delete_invite', { invite_code: 'missing' }));
    await fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'viewer' });
    await collect(fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'viewer' }));
    const invite = [...fx.sandbox.governance.state.invites.values()][0]!;
    fx.sandbox.faults.add({
      target: 'governance',
      pathIncludes: '/invite/create',
      count: 1,
      action: { kind: 'status', status: 403, body: { message: `nope ${seed.adminKey}` } },
    });
    await collect(
      fx.invoke('governance.change_invite_role', {
        invite_code: invite.code,
        email: invite.email,
        role: 'admin',
      }),
    );
    fx.sandbox.governance.deactivateUser(seed.users.member.id);
    await collect(
      fx.invoke('governance.create_project', { name: 'P', organization_id: seed.organizationId }, 'member'),
    );

    expect(failures.map((error) => (error as { code: string }).code)).toEqual([
      'permission_denied',
      'not_found',
      'conflict',
      'partial_failure',
      'reauthorization_required',
    ]);
    for (const error of failures) {
      expectNoSecret(error, seed.adminKey);
      expectNoSecret(error, seed.memberKey);
    }
  });

  it('not in any output, variable or meta of a successful run', async () => {
    const results: InvocationResult[] = [
      await fx.invoke('governance.create_project', { name: 'P', organization_id: seed.organizationId }),
      await fx.invoke('governance.invite_user', { email: 'dana@newhire.example', role: 'viewer' }),
      await fx.invoke('governance.invite_user', { email: seed.users.orgMember.email, role: 'viewer' }),
      await fx.invoke('governance.update_user_role', { user_id: seed.users.orgMember.id, role: 'editor' }),
      await fx.invoke('governance.remove_user', { user_id: seed.users.orgMember.id }),
    ];
    const code = (results[1]!.output as { invite_code: string }).invite_code;
    const changed = await fx.invoke('governance.change_invite_role', {
      invite_code: code,
      email: 'dana@newhire.example',
      role: 'editor',
    });
    results.push(
      changed,
      await fx.invoke('governance.delete_invite', { invite_code: changed.output.invite_code }),
    );
    for (const result of results) expect(JSON.stringify(result)).not.toContain(seed.adminKey);
  });
});
