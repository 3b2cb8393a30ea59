import { describe, expect, it } from 'vitest';
import { parseConnectionFields, resolveBaseUrl } from '../../../src/connection/connection-fields.js';
import {
  authorizeViaLoopback,
  followAuthorizeRedirects,
} from '../../../src/connection/loopback-authorization.js';
import { isToolstepsError } from '../../../src/errors/index.js';
import type { Connection } from '../../../src/model/connection.js';
import { deployments } from '../../../steps/deployments/integration.js';
import { resetOnce } from '../../support/faults.js';
import { closeAfterEach } from '../../support/fixture-lifecycle.js';
import { type DeploymentsFixture, deploymentsFixture, lines } from './deployments-fixture.js';

describe('deployments connection', () => {
  let fx: DeploymentsFixture;
  closeAfterEach(() => fx);

  it('connects through the OAuth code flow with PKCE: form-encoded exchange, long-lived token, no refresh token', async () => {
    fx = await deploymentsFixture();
    const fields = parseConnectionFields(deployments, {
      baseUrl: fx.sandbox.baseUrl('deployments'),
      teamId: 'team_acme',
      clientId: 'toolsteps-cli',
    });
    const tokens = await authorizeViaLoopback({
      integration: deployments,
      baseUrl: resolveBaseUrl(deployments, { fields }),
      clientId: 'toolsteps-cli',
      fetch: fx.runtime.fetch,
      dispatcher: fx.runtime.httpDispatcher,
      clock: fx.clock,
      openAuthorizeUrl: (url) => followAuthorizeRedirects(url),
    });
    expect(tokens.accessToken).toMatch(/^vcl_at_/);
    expect(tokens.refreshToken).toBeUndefined();
    expect(tokens.expiresAt).toBeUndefined();

    const wire = fx.wire();
    expect(lines(wire)).toEqual(['GET /oauth/authorize', 'POST /v2/oauth/access_token']);
    expect(wire[0]?.query.get('code_challenge_method')).toBe('S256');
    expect(wire[1]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(String(wire[1]?.body ?? ''));
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toBeTruthy();

    const connection: Connection = {
      id: 'vercel-oauth',
      integration: 'deployments',
      kind: 'oauth2_no_refresh',
      fields,
      secrets: { accessToken: tokens.accessToken },
      createdAt: fx.clock.now(),
      updatedAt: fx.clock.now(),
    };
    await fx.store.put(connection);
    // A year later the token still works: it does not expire and nothing refreshes it.
    fx.clock.advance(365 * 24 * 3600_000);
    fx.clearWire();
    const listed = await fx.registry.invoke(fx.runtime, 'deployments.list_deployments', {
      connection: 'vercel-oauth',
      input: { project: 'shop' },
    });
    expect((listed.output as { deployments: unknown[] }).deployments).toHaveLength(1);
    expect(fx.wire()[0]?.query.get('teamId')).toBe('team_acme');
  });

  it("refreshes a newer app's expiring token at /login/oauth/token and keeps working (both kinds of token)", async () => {
    fx = await deploymentsFixture();
    const tokens = fx.sandbox.deployments.issueAppTokens(1);
    await fx.store.put({
      id: 'vercel-app',
      integration: 'deployments',
      kind: 'oauth2',
      fields: { baseUrl: fx.sandbox.baseUrl('deployments'), clientId: 'toolsteps-cli' },
      secrets: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token! },
      expiresAt: fx.clock.now() + (tokens.expires_in ?? 3600) * 1000,
      createdAt: fx.clock.now(),
      updatedAt: fx.clock.now(),
    });
    // Two hours on, the access token is dead: the refresh goes first, then the call.
    fx.clock.advance(2 * 3600_000);
    fx.clearWire();
    await fx.registry.invoke(fx.runtime, 'deployments.list_deployments', {
      connection: 'vercel-app',
      input: {},
    });
    expect(lines(fx.wire())).toEqual(['POST /login/oauth/token', 'GET /v6/deployments']);
    const saved = await fx.store.get('vercel-app');
    expect(saved?.secrets.accessToken).not.toBe(tokens.access_token);
    expect(saved?.secrets.refreshToken).not.toBe(tokens.refresh_token);
    expect(saved?.expiresAt).toBe(fx.clock.now() + 3600_000);
  });

  it('points the sign-in at the web host and the code exchange at the API host for real accounts', () => {
    const oauth = deployments.connection.oauth!;
    expect(oauth.authorizeUrl('https://api.vercel.com')).toBe('https://vercel.com/oauth/authorize');
    expect(oauth.tokenUrl('https://api.vercel.com')).toBe('https://api.vercel.com/v2/oauth/access_token');
    // Long-lived integration tokens never refresh; newer apps' tokens refresh at /login/oauth/token.
    expect(oauth.refreshUrl?.('https://api.vercel.com')).toBe('https://api.vercel.com/login/oauth/token');
  });

  it('validates the team id, which ends up in every query string', () => {
    expect(() => parseConnectionFields(deployments, { teamId: 'team_a&x=1' })).toThrow(/team id/);
    expect(parseConnectionFields(deployments, { teamId: 'team_acme' })).toEqual({ teamId: 'team_acme' });
  });

  it('asks for re-authorisation when the provider says the token is no longer valid (403 invalidToken)', async () => {
    fx = await deploymentsFixture();
    fx.sandbox.deployments.oauth.revoke(fx.token);
    const failure = await fx
      .invoke('deployments.list_deployments', { project: 'web' })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'reauthorization_required', status: 403 });
    expect((failure as Error).message).toContain('toolsteps connect deployments');
    expect(fx.wire()).toHaveLength(1);
  });

  it('never lets the token reach outputs, variables, errors or logs', async () => {
    fx = await deploymentsFixture();
    const seen: unknown[] = [];
    const record = async (stepId: string, input: unknown, extra = {}) => {
      try {
        seen.push(await fx.invokeUnchecked(stepId, input, extra));
      } catch (error) {
        seen.push(
          isToolstepsError(error)
            ? { json: error.toJSON(), message: error.message, cause: String(error.cause) }
            : error,
        );
      }
    };
    const created = await fx.invoke('deployments.create_deployment', {
      project: 'web',
      branch: 'main',
    });
    seen.push(created);
    await record('deployments.list_deployments', { project: 'web' });
    await record('deployments.cancel_deployment', { deployment_id: created.output.deployment.id });
    await record('deployments.cancel_deployment', { deployment_id: created.output.deployment.id });
    await record('deployments.api_call', { method: 'GET', path: '/v9/projects/nope' });
    await record('deployments.api_call', { method: 'GET', path: '/v2/teams/team_globex' });
    // A provider that echoes the token back in an error must not leak it through us.
    fx.sandbox.faults.add({
      target: 'deployments',
      count: 1,
      action: {
        kind: 'status',
        status: 400,
        body: { error: { code: 'bad_request', message: `bad token ${fx.token}` } },
      },
    });
    await record('deployments.api_call', { method: 'GET', path: '/v9/projects' });
    fx.sandbox.faults.add(resetOnce({ target: 'deployments' }));
    await record('deployments.create_deployment', { project: 'web', repository: 'ada/web', branch: 'main' });
    fx.sandbox.deployments.oauth.revoke(fx.token);
    await record('deployments.list_deployments', {});

    const everything = JSON.stringify({ seen, logs: fx.logger.lines });
    expect(seen).toHaveLength(9);
    expect(fx.logger.lines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(fx.token);
    expect(everything).not.toContain(fx.token.slice(7));
    expect(everything).toContain('[redacted]');
  });
});
