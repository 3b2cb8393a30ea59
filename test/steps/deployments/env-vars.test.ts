import { describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines } from './deployments-fixture.js';

const SECRET = 'sk_live_never_print_me_4242';

/** Every place a value could leak to: the output, the variables, the log. */
function everythingSeen(fx: DeploymentsFixture, result: { output: unknown; variables: unknown }): string {
  return JSON.stringify([result.output, result.variables, fx.logger.lines]);
}

describe('deployments environment variable steps', () => {
  const fx = useFixture(() => deploymentsFixture({ teamId: 'team_acme' }));

  it('create_env_var upserts: POST ?upsert=true, the same key twice leaves one variable', async () => {
    fx.clearWire();
    const input = {
      project: 'shop',
      key: 'SITE_COLOR',
      value: 'blue',
      type: 'plain' as const,
      targets: ['preview' as const],
    };
    const first = await fx.invoke('deployments.create_env_var', input);
    expect(lines(fx.wire())).toEqual(['POST /v10/projects/shop/env']);
    expect(fx.wire()[0]?.query.get('upsert')).toBe('true');
    expect(fx.wire()[0]?.body).toEqual({
      key: 'SITE_COLOR',
      value: 'blue',
      type: 'plain',
      target: ['preview'],
    });
    expect(first.output.env_var).toMatchObject({ key: 'SITE_COLOR', value: 'blue', value_hidden: false });
    const second = await fx.invoke('deployments.create_env_var', { ...input, value: 'green' });
    expect(second.output.env_var.id).toBe(first.output.env_var.id);
    const listed = await fx.invoke('deployments.list_env_vars', { project: 'shop' });
    expect(listed.output.env_vars.filter((env) => env.key === 'SITE_COLOR')).toMatchObject([
      { value: 'green' },
    ]);
  });

  it('a sensitive value is never in output, variables or logs: not on create, list, update', async () => {
    const created = await fx.invoke('deployments.create_env_var', {
      project: 'shop',
      key: 'PAYMENTS_KEY',
      value: SECRET,
      type: 'sensitive',
      targets: ['production'],
    });
    expect(created.output.env_var).toMatchObject({ type: 'sensitive', value: null, value_hidden: true });
    const listed = await fx.invoke('deployments.list_env_vars', { project: 'shop' });
    const updated = await fx.invoke('deployments.update_env_var', {
      project: 'shop',
      env_id: created.output.env_var.id,
      value: `${SECRET}-rotated`,
    });
    for (const result of [created, listed, updated]) expect(everythingSeen(fx, result)).not.toContain(SECRET);
    // The list never asks the provider to decrypt.
    expect(
      fx
        .wire()
        .find((request) => request.method === 'GET')
        ?.query.has('decrypt'),
    ).toBe(false);
  });

  it('secret and encrypted values the provider does send are withheld; only plain values are shown', async () => {
    const { world } = fx.sandbox.deployments;
    const scope = world.scope('team_acme');
    const shop = scope.project('shop')!;
    // A legacy secret: the provider answers its value (the reference) in clear.
    world.addEnv(scope, shop, world.users.get(1)!, {
      key: 'LEGACY_TOKEN',
      value: SECRET,
      type: 'secret',
      target: ['production'],
    });
    const listed = await fx.invoke('deployments.list_env_vars', { project: 'shop' });
    const byKey = Object.fromEntries(listed.output.env_vars.map((env) => [env.key, env]));
    expect(byKey.LEGACY_TOKEN).toMatchObject({ type: 'secret', value: null, value_hidden: true });
    expect(byKey.DATABASE_URL).toMatchObject({ type: 'encrypted', value: null, value_hidden: true });
    expect(byKey.NEXT_PUBLIC_SITE_NAME).toMatchObject({
      type: 'plain',
      value: 'Acme Shop',
      value_hidden: false,
    });
    expect(everythingSeen(fx, listed)).not.toContain(SECRET);
    expect(JSON.stringify(listed.output)).not.toContain('postgres://');
    expect(listed.variables).toEqual({
      keys: ['DATABASE_URL', 'NEXT_PUBLIC_SITE_NAME', 'LEGACY_TOKEN'],
      env_ids: listed.output.env_vars.map((env) => env.id),
    });
  });

  it('refuses the provider rules before sending: sensitive to development, a branch without preview', async () => {
    await fx.expectRefusedUnsent(
      { name: 'InputError' },
      () =>
        fx.invoke('deployments.create_env_var', {
          project: 'shop',
          key: 'K',
          value: SECRET,
          type: 'sensitive',
          targets: ['development'],
        }),
      () =>
        fx.invoke('deployments.create_env_var', {
          project: 'shop',
          key: 'K',
          value: 'v',
          git_branch: 'beta',
        }),
    );
  });

  it('a project outside the scope is refused unsent, for every env step', async () => {
    const constraints = { constraints: { projects: ['docs'] } };
    await fx.expectRefusedUnsent(
      { name: 'PermissionError', sent: false },
      () => fx.invoke('deployments.list_env_vars', { project: 'shop' }, constraints),
      () =>
        fx.invoke('deployments.create_env_var', { project: 'shop', key: 'K', value: SECRET }, constraints),
      () =>
        fx.invoke('deployments.update_env_var', { project: 'shop', env_id: 'e1', value: 'v' }, constraints),
      () => fx.invoke('deployments.delete_env_var', { project: 'shop', env_id: 'e1' }, constraints),
    );
  });

  it('update_env_var changes only what is given; delete_env_var removes it and maps no value', async () => {
    const listed = await fx.invoke('deployments.list_env_vars', { project: 'shop' });
    const site = listed.output.env_vars.find((env) => env.key === 'NEXT_PUBLIC_SITE_NAME')!;
    fx.clearWire();
    const updated = await fx.invoke('deployments.update_env_var', {
      project: 'shop',
      env_id: site.id,
      value: 'Acme Store',
    });
    expect(lines(fx.wire())).toEqual([`PATCH /v9/projects/shop/env/${site.id}`]);
    expect(fx.wire()[0]?.body).toEqual({ value: 'Acme Store' });
    expect(updated.output.env_var).toMatchObject({ value: 'Acme Store', targets: site.targets });
    const deleted = await fx.invoke('deployments.delete_env_var', { project: 'shop', env_id: site.id });
    expect(deleted.output).toEqual({ env_id: site.id, deleted: true, already_done: false });
    const after = await fx.invoke('deployments.list_env_vars', { project: 'shop' });
    expect(after.output.env_vars.map((env) => env.key)).not.toContain('NEXT_PUBLIC_SITE_NAME');
  });
});
