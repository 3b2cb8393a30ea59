import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANZ_DATA_SANDBOX_KEY } from '../../sandbox/index.js';
import { createRegistry } from '../../steps/index.js';
import { failTicketingRevocations } from '../support/ticketing-revocation-fault.js';
import {
  allowAtProvider,
  type BuilderWorld,
  followSignIn,
  openBuilderWorld,
  PAGE_ORIGIN,
  storesOf,
} from './builder-fixture.js';

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld();
});
afterAll(() => world.close());

const signIn = (authorizeUrl: string) => followSignIn(world, authorizeUrl);
const registry = createRegistry();

/** Every secret the tenant's stored connections hold. */
async function storedSecrets(tenant = 'acme'): Promise<string[]> {
  const connections = await storesOf(world, tenant).connections.list();
  return connections.flatMap((connection) => Object.values(connection.secrets) as string[]);
}

describe('connecting accounts through the builder API', () => {
  it('ticketing: redirect to the allow screen and back; the server holds state, PKCE and the client secret', async () => {
    const returnTo = `${PAGE_ORIGIN}/builder/connections`;
    const started = await world.json('/v1/connections', {
      body: { integration: 'ticketing', id: 'desk', label: 'Support desk', returnTo },
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ flow: 'redirect', flowId: expect.stringMatching(/^flow_/) });
    const authorize = new URL(started.body.authorizeUrl);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('client_id')).toBe('toolsteps-server');
    expect(started.body.authorizeUrl).not.toContain('sandbox-client-secret');

    const back = await signIn(started.body.authorizeUrl);
    expect(back.status).toBe(303);
    const landed = new URL(back.headers.get('location')!);
    expect(`${landed.origin}${landed.pathname}`).toBe(returnTo);
    expect(landed.searchParams.get('toolsteps_flow')).toBe(started.body.flowId);
    expect(landed.searchParams.get('toolsteps_connect')).toBe('connected');
    expect(landed.searchParams.has('code')).toBe(false);

    const status = await world.json(`/v1/connect-flows/${started.body.flowId}`);
    expect(status.body).toMatchObject({
      state: 'connected',
      connection: { id: 'desk', integration: 'ticketing', label: 'Support desk', kind: 'oauth2' },
    });
    const [stored] = await storesOf(world).connections.list();
    expect(stored).toMatchObject({ id: 'desk', fields: { subdomain: 'acme', clientId: 'toolsteps-server' } });
    expect(stored!.secrets.refreshToken).toBeTruthy();
    const text = JSON.stringify([started.body, status.body, landed.toString()]);
    for (const secret of await storedSecrets()) expect(text).not.toContain(secret);

    const tested = await world.json('/v1/connections/desk/test', { method: 'POST' });
    expect(tested.body).toMatchObject({ id: 'desk', ok: true });
  });

  it('the callback spends a state once; an unknown state stores nothing', async () => {
    const started = await world.json('/v1/connections', {
      body: { integration: 'ticketing', id: 'desk-twice' },
    });
    const callback = await allowAtProvider(world, started.body.authorizeUrl);
    const cookie = world.cookies();
    expect((await fetch(callback, { redirect: 'manual', headers: { cookie } })).status).toBe(200);
    const again = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('no longer valid');
    const forged = await fetch(`${world.server.url}/v1/oauth/callback?state=forged&code=abc`);
    expect(forged.status).toBe(400);
    // Named for the account it signed in as (the provider's "Show Self" answer), and checked.
    expect(await storesOf(world).connections.get('desk-twice')).toMatchObject({
      label: expect.stringMatching(/@/),
      health: { state: 'healthy' },
    });
  });

  it('deployments: the pop-up page tells only the opener at the starting origin, and the connection is the starting tenant’s', async () => {
    const started = await world.json('/v1/connections', { body: { integration: 'deployments', id: 'ship' } });
    expect(started.body.flow).toBe('popup');
    const page = await signIn(started.body.authorizeUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`"flowId":"${started.body.flowId}"`);
    expect(html).toContain(`, "${PAGE_ORIGIN}")`);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    for (const secret of await storedSecrets()) expect(html).not.toContain(secret);
    expect(await storesOf(world, 'other').connections.get('ship')).toBeUndefined();
    expect(await storesOf(world).connections.get('ship')).toMatchObject({ fields: { teamId: 'team_acme' } });
  });

  it('anz_data: the API key form stores the key and never answers it back', async () => {
    const added = await world.json('/v1/connections', {
      body: { integration: 'anz_data', id: 'anz', apiKey: ANZ_DATA_SANDBOX_KEY },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ flow: 'api_key', connection: { id: 'anz', kind: 'api_key' } });
    expect(JSON.stringify(added.body)).not.toContain(ANZ_DATA_SANDBOX_KEY);
    const listed = await world.json('/v1/connections');
    expect(listed.body.connections.map((item: { id: string }) => item.id).sort()).toEqual(
      ['anz', 'desk', 'desk-twice', 'ship'].sort(),
    );
    expect(JSON.stringify(listed.body)).not.toContain(ANZ_DATA_SANDBOX_KEY);
    // A wrong key is checked at save and refused there, in words for the person at the form; nothing is kept.
    const wrong = await world.json('/v1/connections', {
      body: { integration: 'contact_data', id: 'contacts', apiKey: 'not-the-key' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      code: 'input_invalid',
      message:
        'Contact data (Lusha) did not accept this API key. Check that you copied all of it and that it is still active.',
      fields: [{ path: 'apiKey', message: 'refused by the provider' }],
    });
    expect(JSON.stringify(wrong.body)).not.toContain('not-the-key');
    expect(JSON.stringify(wrong.body)).not.toContain('toolsteps');
    expect(await storesOf(world).connections.get('contacts')).toBeUndefined();
  });

  it('a connection is named, renamed and its health shown from its checks', async () => {
    const added = await world.json('/v1/connections', {
      body: {
        integration: 'anz_data',
        id: 'anz-named',
        label: 'Marketing key',
        apiKey: ANZ_DATA_SANDBOX_KEY,
      },
    });
    expect(added.body.connection).toMatchObject({ label: 'Marketing key', health: { state: 'healthy' } });
    expect(added.body.connection.health.checkedAt).toMatch(/^\d{4}-/);
    const renamed = await world.json('/v1/connections/anz-named', {
      method: 'PATCH',
      body: { label: '  Sales key ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: 'anz-named', label: 'Sales key', health: { state: 'healthy' } });
    const empty = await world.json('/v1/connections/anz-named', { method: 'PATCH', body: { label: ' ' } });
    expect(empty.status).toBe(400);
    const listed = await world.json('/v1/connections?integration=anz_data');
    expect(listed.body.connections).toContainEqual(
      expect.objectContaining({ id: 'anz-named', label: 'Sales key' }),
    );
    const removed = await world.json('/v1/connections/anz-named', { method: 'DELETE' });
    expect(removed.body).toEqual({
      id: 'anz-named',
      removed: true,
      revocation: { state: 'not_revocable', reason: expect.stringContaining('an API key') },
    });
  });

  it('a failed sign-in says why without the client secret, the code or the verifier', async () => {
    const secret = 'wrong-client-secret-4711';
    const failing = await openBuilderWorld({
      adjustConnect: (connect) => {
        connect.ticketing = { ...connect.ticketing!, clientSecret: secret };
      },
    });
    try {
      const started = await failing.json('/v1/connections', {
        body: { integration: 'ticketing', id: 'desk' },
      });
      const callback = new URL(await allowAtProvider(failing, started.body.authorizeUrl));
      const page = await fetch(callback, { redirect: 'manual', headers: { cookie: failing.cookies() } });
      const status = await failing.json(`/v1/connect-flows/${started.body.flowId}`);
      expect(status.body).toMatchObject({
        state: 'failed',
        connection: null,
        error: { code: 'auth_failed' },
      });
      const said = `${await page.text()} ${JSON.stringify(status.body)}`;
      expect(page.status).toBe(400);
      expect(said).toContain('Not connected');
      for (const leaked of [secret, callback.searchParams.get('code')!]) expect(said).not.toContain(leaked);
      expect(await storesOf(failing).connections.list()).toEqual([]);
    } finally {
      await failing.close();
    }
  });

  it('reconnect signs in again under the same id; disconnect removes it', async () => {
    const before = await storesOf(world).connections.get('desk');
    const started = await world.json('/v1/connections/desk/reconnect', { body: {} });
    expect(started.body.flow).toBe('redirect');
    await signIn(started.body.authorizeUrl);
    const after = await storesOf(world).connections.get('desk');
    expect(after!.secrets.accessToken).not.toBe(before!.secrets.accessToken);
    expect(after!.createdAt).toBe(before!.createdAt);
    const revocations = world.sandbox.ticketing.oauth.revocations.revoked;
    const removed = await world.json('/v1/connections/desk-twice', { method: 'DELETE' });
    expect(removed.body).toEqual({
      id: 'desk-twice',
      removed: true,
      revocation: { state: 'revoked', attempts: 1 },
    });
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revocations + 1);
    expect(await storesOf(world).connections.get('desk-twice')).toBeUndefined();
  });

  it('a disconnect the provider fails to revoke answers `pending`, keeps it sealed away from the tenant, and a retry completes it', async () => {
    const started = await world.json('/v1/connections', {
      body: { integration: 'ticketing', id: 'desk-flaky' },
    });
    await signIn(started.body.authorizeUrl);
    const secrets = (await storesOf(world).connections.get('desk-flaky'))!.secrets;
    failTicketingRevocations(world.sandbox);
    const revocations = world.sandbox.ticketing.oauth.revocations.revoked;
    const removed = await world.json('/v1/connections/desk-flaky', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      id: 'desk-flaky',
      removed: true,
      revocation: {
        state: 'pending',
        code: 'revocation_failed',
        attempts: 1,
        pendingId: expect.stringMatching(/^rv_/),
      },
    });
    for (const secret of Object.values(secrets)) expect(JSON.stringify(removed.body)).not.toContain(secret);
    expect(await storesOf(world).connections.get('desk-flaky')).toBeUndefined();
    const { retryPendingRevocations } = await import('../../src/connection/retry-pending-revocations.js');
    const report = await retryPendingRevocations(world.tenants, {
      integration: (id) => registry.integration(id),
      clock: { now: () => Date.now() + 60_000, sleep: async () => {} },
      fetch: globalThis.fetch,
      dispatcher: undefined,
    });
    expect(report.outcomes.map((one) => [one.connection.id, one.revocation.state])).toEqual([
      ['desk-flaky', 'revoked'],
    ]);
    expect(world.sandbox.ticketing.oauth.revocations.revoked).toBe(revocations + 1);
    expect(await world.tenants.pendingRevocations.list()).toEqual([]);
  });

  it('another tenant’s connection and sign-in ids are not found, exactly like ids nobody holds', async () => {
    const stranger = world.token('globex');
    const started = await world.json('/v1/connections', { body: { integration: 'ticketing', id: 'x' } });
    const probes: [string, string][] = [
      ['POST', '/v1/connections/anz/test'],
      ['DELETE', '/v1/connections/anz'],
      ['POST', '/v1/connections/anz/reconnect'],
      ['GET', `/v1/connect-flows/${started.body.flowId}`],
    ];
    for (const [method, path] of probes) {
      const theirs = await world.json(path, {
        method,
        token: stranger,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      const nobodys = await world.json(path.replace('anz', 'nobody').replace(/flow_\w+/, 'flow_nobody'), {
        method,
        token: stranger,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect([theirs.status, theirs.body.error.code], path).toEqual([404, 'not_found']);
      expect(theirs.body.error.code).toBe(nobodys.body.error.code);
    }
    expect((await world.json('/v1/connections', { token: stranger })).body).toEqual({ connections: [] });
    expect(await storesOf(world).connections.get('anz')).toBeDefined();
  });
});
