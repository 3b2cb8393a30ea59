import { afterEach, describe, expect, it } from 'vitest';
import { CONTROL_HEADER, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { INVALID_GRANT_DESCRIPTION } from '../../sandbox/oauth-provider.js';
import { ManualClock } from '../../src/model/clock.js';

const DAY_MS = 86_400_000;
const opened: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((box) => box.close()));
});

async function sandbox(clock?: ManualClock): Promise<Sandbox> {
  const box = await startSandbox(clock ? { clock } : {});
  opened.push(box);
  return box;
}

function tokenRequest(box: Sandbox, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${box.baseUrl('ticketing', 'acme')}/oauth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'toolsteps-cli', ...body }),
  });
}

const refresh = (box: Sandbox, refreshToken: string, extra: Record<string, unknown> = {}) =>
  tokenRequest(box, { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });

function moveClock(box: Sandbox, ms: number): Promise<Response> {
  return fetch(`${box.url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONTROL_HEADER]: '1' },
    body: JSON.stringify({ advance_ms: ms }),
  });
}

describe('the ticketing sandbox, token lifetimes', () => {
  it('says refresh_token_expires_in (30 days by default) and honours a requested lifetime within 7 to 90 days', async () => {
    const box = await sandbox(new ManualClock());
    const first = box.ticketing.issueTokens('acme');
    expect(first.refresh_token_expires_in).toBe(30 * 86_400);
    const asked = await refresh(box, first.refresh_token as string, {
      refresh_token_expires_in: 604_800,
      expires_in: 86_400,
    });
    expect(asked.status).toBe(200);
    const body = (await asked.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ refresh_token_expires_in: 604_800, expires_in: 86_400 });
    const tooLong = await refresh(box, body.refresh_token as string, { refresh_token_expires_in: 7_776_001 });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ error: 'invalid_request' });
    const accessLongerThanRefresh = await refresh(box, body.refresh_token as string, {
      refresh_token_expires_in: 604_800,
      expires_in: 172_800 + 1,
    });
    expect(accessLongerThanRefresh.status).toBe(400);
    // A refused request spends nothing: the token still refreshes.
    expect((await refresh(box, body.refresh_token as string)).status).toBe(200);
  });

  it('refuses an expired refresh token with the provider’s invalid_grant, once the clock moved past its life', async () => {
    const clock = new ManualClock();
    const box = await sandbox(clock);
    const tokens = box.ticketing.issueTokens('acme');
    expect((await moveClock(box, 30 * DAY_MS)).status).toBe(200);
    const expired = await refresh(box, tokens.refresh_token as string);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      error: 'invalid_grant',
      error_description: INVALID_GRANT_DESCRIPTION,
    });
    expect(box.ticketing.oauth.grants.refresh_token).toBe(1);
  });

  it('revokes with DELETE /api/v2/oauth/tokens/current.json: 204, the access and the refresh token die, counted', async () => {
    const box = await sandbox(new ManualClock());
    const tokens = box.ticketing.issueTokens('acme');
    const base = box.baseUrl('ticketing', 'acme');
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    const revoked = await fetch(`${base}/api/v2/oauth/tokens/current.json`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(revoked.status).toBe(204);
    expect(box.ticketing.oauth.revocations).toEqual({ revoked: 1, unknown: 0 });
    const after = await fetch(`${base}/api/v2/users/me.json`, { headers: auth });
    expect(after.status).toBe(401);
    const refused = await refresh(box, tokens.refresh_token as string);
    expect(await refused.json()).toEqual({
      error: 'invalid_grant',
      error_description: INVALID_GRANT_DESCRIPTION,
    });
  });

  it('revokes a token by its number for the same account, and answers 404 for one it does not know', async () => {
    const box = await sandbox(new ManualClock());
    const mine = box.ticketing.issueTokens('acme');
    const other = box.ticketing.issueTokens('acme');
    const id = box.ticketing.oauth.tokenId(other.access_token) as number;
    const base = box.baseUrl('ticketing', 'acme');
    const auth = { authorization: `Bearer ${mine.access_token}` };
    expect(
      (await fetch(`${base}/api/v2/oauth/tokens/${id}.json`, { method: 'DELETE', headers: auth })).status,
    ).toBe(204);
    expect(
      (await fetch(`${base}/api/v2/oauth/tokens/${id}.json`, { method: 'DELETE', headers: auth })).status,
    ).toBe(404);
    expect(box.ticketing.oauth.revocations).toEqual({ revoked: 1, unknown: 1 });
  });

  it('moves its clock only when it runs on a manual clock (tests): a system-clock sandbox refuses', async () => {
    const box = await sandbox();
    const refused = await moveClock(box, 30 * DAY_MS);
    expect(refused.status).toBe(409);
  });
});

describe('the deployments sandbox, app token revocation', () => {
  it('revokes an app token pair at /login/oauth/token/revoke (RFC 7009: 200 either way)', async () => {
    const box = await sandbox(new ManualClock());
    const tokens = box.deployments.issueAppTokens();
    const revoke = (token: string, clientId = 'toolsteps-cli') =>
      fetch(`${box.baseUrl('deployments')}/login/oauth/token/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: clientId }).toString(),
      });
    expect((await revoke(tokens.access_token, 'someone')).status).toBe(401);
    expect((await revoke(tokens.refresh_token as string)).status).toBe(200);
    expect((await revoke('vca_unknown')).status).toBe(200);
    expect(box.deployments.appOAuth.revocations).toEqual({ revoked: 1, unknown: 1 });
    expect(box.deployments.appOAuth.check(tokens.access_token).ok).toBe(false);
  });
});
