import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { AuthError } from '../../src/errors/auth-error.js';
import { ManualClock } from '../../src/model/clock.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { MemoryTokenRevocations } from '../../src/store/memory/memory-token-revocations.js';
import { signToken } from '../../src/tenants/sign-token.js';
import { TokenKey } from '../../src/tenants/token-key.js';
import { TokenKeys } from '../../src/tenants/token-keys.js';
import { verifyToken } from '../../src/tenants/verify-token.js';

const SECRET = 'this-server-key-0123456789-abcdef';
const KEY = new TokenKey(SECRET, { id: 'k1' });
const OTHER_KEY = new TokenKey('another-server-key-0123456789-abcdef', { id: 'k1' });
const ACME = parseTenantId('acme');
const HOUR = 3_600_000;

function world(keys = new TokenKeys([KEY])) {
  const clock = new ManualClock();
  const revocations = new MemoryTokenRevocations(clock);
  const sign = (extra: Partial<Parameters<typeof signToken>[0]> = {}) =>
    signToken({ tenant: ACME, scopes: ['mcp'], ttlMs: HOUR, key: KEY, clock, ...extra });
  const verify = (bearer: unknown, scope: 'mcp' | 'builder' = 'mcp', using = keys) =>
    verifyToken(bearer, { keys: using, revocations, scope, clock });
  const seconds = () => Math.floor(clock.now() / 1000);
  return { clock, revocations, sign, verify, seconds };
}

/** The refusal every bad token gets: one code, one message, whatever the reason. */
async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AuthError);
  const { code, message } = error as AuthError;
  return { code, message };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const flip = (text: string, at: number) =>
  text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

/** A JWT of any header and claims, signed with `secret` the way any HS256 library does. */
async function jwt(claims: Record<string, unknown>, header: Record<string, unknown> = {}, secret = SECRET) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: 'k1', ...header } as { alg: string })
    .sign(new TextEncoder().encode(secret));
}

/** The same by hand (node:crypto only), for headers `jose` itself will not sign. */
function handJwt(claims: Record<string, unknown>, header: Record<string, unknown>, secret = SECRET) {
  const body = `${b64(header)}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('scoped tokens (JWT)', () => {
  it('sign and verify to the tenant, scopes, allow-list, read-only flag and expiry given, as documented claims', async () => {
    const { sign, verify, clock } = world();
    const signed = await sign({ integrations: ['ticketing'], readOnly: true, scopes: ['mcp', 'builder'] });
    expect(signed.token).toMatch(/^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]{43}$/);
    expect(decodeProtectedHeader(signed.token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'k1' });
    const claims = decodeJwt(signed.token);
    expect(claims).toEqual({
      jti: signed.tokenId,
      aud: ['toolsteps:mcp', 'toolsteps:builder'],
      iat: Math.floor(clock.now() / 1000),
      exp: Math.floor((clock.now() + HOUR) / 1000),
      toolsteps: { tenant: 'acme', integrations: ['ticketing'], readOnly: true },
    });
    expect(signed.tokenId).toMatch(/^tok_[A-Za-z0-9_-]{16}\.acme$/);
    const principal = await verify(signed.token);
    expect(principal).toEqual({
      tokenId: signed.tokenId,
      tenant: 'acme',
      scopes: ['mcp', 'builder'],
      integrations: ['ticketing'],
      readOnly: true,
      expiresAt: new Date(Math.floor((clock.now() + HOUR) / 1000) * 1000),
    });
    expect(JSON.stringify(principal)).not.toContain(signed.token);
  });

  it('refuse, all alike, every failure class: malformed, tampered, unknown kid, wrong alg, foreign claims, times, scope, revoked', async () => {
    const { sign, verify, clock, revocations, seconds } = world();
    const { token, tokenId, expiresAt } = await sign();
    const valid = await refusalOf(verify('eyJ.eyJ.x'));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = decodeJwt(token);
    const now = seconds();
    const good = { ...claims };
    const forgedTenant = { ...claims, toolsteps: { tenant: 'globex', readOnly: false } };
    const cases: unknown[] = [
      `${flip(header, 5)}.${payload}.${signature}`,
      `${header}.${flip(payload, 12)}.${signature}`,
      `${header}.${payload}.${flip(signature, 0)}`,
      // The last character's spare bits: another spelling of the same digest is not a second token.
      `${header}.${payload}.${signature.slice(0, 42)}${String.fromCharCode(signature.charCodeAt(42) + 1)}`,
      `${header}.${b64(forgedTenant)}.${signature}`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.`,
      `${b64({ alg: 'none', typ: 'JWT', kid: 'k1' })}.${payload}.`,
      `${b64({ alg: 'none', kid: 'k1' })}.${payload}.${signature}`,
      await jwt(good, {}, 'another-server-key-0123456789-abcdef'),
      await jwt(good, { kid: 'k2' }),
      await jwt(good, { kid: undefined }),
      await jwt(good, { alg: 'HS512' }),
      await jwt(good, { alg: 'HS384' }),
      handJwt(good, { alg: 'HS256', kid: 'k1', crit: ['exp'], exp: 1 }),
      handJwt(good, { alg: 'none', kid: 'k1' }),
      handJwt(good, { alg: 'RS256', kid: 'k1' }),
      await jwt(forgedTenant),
      await jwt({ ...good, jti: tokenId.replace('.acme', '.globex') }),
      await jwt({ ...good, aud: 'toolsteps:builder' }),
      await jwt({ ...good, aud: 'someone-else' }),
      await jwt({ ...good, exp: now }),
      await jwt({ ...good, nbf: now + 31 }),
      await jwt({ ...good, iat: now + 31 }),
      await jwt({ ...good, iat: now - 91 * 24 * 3600 }),
      await jwt({ ...good, admin: true }),
      await jwt({ ...good, toolsteps: { tenant: 'acme' } }),
      await jwt({ ...good, toolsteps: { tenant: 'acme', readOnly: false, role: 'owner' } }),
      await jwt({ ...good, jti: undefined }),
      `Bearer ${token}`,
      `${token} `,
      token.toUpperCase(),
      signature,
      '',
      42,
      undefined,
      `${header}.${'eyJ'.padEnd(5000, 'A')}.${signature}`,
    ];
    for (const [index, bad] of cases.entries())
      expect(await refusalOf(verify(bad)), String(index)).toEqual(valid);
    expect(await refusalOf(verify(token, 'mcp', new TokenKeys([OTHER_KEY])))).toEqual(valid);
    expect(await refusalOf(verify(token, 'builder'))).toEqual(valid);
    await expect(verify(token)).resolves.toMatchObject({ tenant: 'acme' });
    await expect(verify(handJwt(good, { alg: 'HS256', kid: 'k1' }))).resolves.toMatchObject({
      tenant: 'acme',
    });
    await expect(verify(await jwt({ ...good, nbf: now + 20, iat: now + 20 }))).resolves.toBeDefined();
    await revocations.revoke(ACME, tokenId, expiresAt);
    expect(await refusalOf(verify(token))).toEqual(valid);
    const later = await sign();
    clock.advance(HOUR);
    expect(await refusalOf(verify(later.token))).toEqual(valid);
  });

  it('work until the second they expire, with no leeway on exp (a revocation is kept only that long)', async () => {
    const { sign, verify, clock } = world();
    const { token, expiresAt } = await sign({ ttlMs: 120_000 });
    clock.advance(expiresAt.getTime() - clock.now() - 1);
    await expect(verify(token)).resolves.toBeDefined();
    clock.advance(1);
    await expect(verify(token)).rejects.toBeInstanceOf(AuthError);
  });

  it('rotate: a token of the old key works while both keys are configured, and not once the old one is gone', async () => {
    const oldKey = new TokenKey('the-old-server-key-0123456789-abcdef', { id: '2026-08' });
    const newKey = new TokenKey('the-new-server-key-0123456789-abcdef', { id: '2026-11' });
    const { sign, verify } = world();
    const old = await sign({ key: oldKey });
    const fresh = await sign({ key: newKey });
    const both = new TokenKeys([newKey, oldKey]);
    expect(both.signing.id).toBe('2026-11');
    await expect(verify(old.token, 'mcp', both)).resolves.toMatchObject({ tokenId: old.tokenId });
    await expect(verify(fresh.token, 'mcp', both)).resolves.toMatchObject({ tokenId: fresh.tokenId });
    await expect(verify(old.token, 'mcp', new TokenKeys([newKey]))).rejects.toBeInstanceOf(AuthError);
    await expect(verify(fresh.token, 'mcp', new TokenKeys([newKey]))).resolves.toBeDefined();
  });

  it('bind a token to its own tenant: a revocation in another tenant, or of another id, changes nothing', async () => {
    const { sign, verify, revocations } = world();
    const acme = await sign();
    const globex = await sign({ tenant: parseTenantId('globex') });
    await revocations.revoke(parseTenantId('globex'), acme.tokenId, acme.expiresAt);
    await revocations.revoke(ACME, globex.tokenId, globex.expiresAt);
    await expect(verify(acme.token)).resolves.toMatchObject({ tenant: 'acme' });
    await expect(verify(globex.token)).resolves.toMatchObject({ tenant: 'globex' });
  });

  it('are made only for a valid tenant, known scopes, integration ids and a life of 1 minute to 90 days', async () => {
    const { sign } = world();
    const refused = expect.objectContaining({ code: 'input_invalid' });
    for (const tenant of ['Acme', '../b', 'a/../b', '%2e%2e', '', 'a.b']) {
      await expect(sign({ tenant: tenant as never })).rejects.toThrow(refused);
    }
    await expect(sign({ scopes: ['admin' as never] })).rejects.toThrow(refused);
    await expect(sign({ scopes: [] })).rejects.toThrow(refused);
    await expect(sign({ integrations: ['Ticketing'] })).rejects.toThrow(refused);
    await expect(sign({ ttlMs: 59_000 })).rejects.toThrow(refused);
    await expect(sign({ ttlMs: 91 * 24 * HOUR })).rejects.toThrow(refused);
    expect((await sign({ scopes: ['mcp', 'builder', 'mcp'] })).scopes).toEqual(['mcp', 'builder']);
  });
});

describe('tokens of the tst_ format made before JWT', () => {
  /** A token as 0.x's `signToken` made it: `tst_<claims>.<HMAC-SHA256>`. */
  function legacy(claims: Record<string, unknown>, key = KEY) {
    const body = `tst_${b64(claims)}`;
    return `${body}.${key.sign(body)}`;
  }

  it('still verify until they expire, with one deprecation warning, under any configured key', async () => {
    const { verify, clock, seconds, revocations } = world(
      new TokenKeys([new TokenKey('x'.repeat(40), { id: 'new' }), KEY]),
    );
    const id = 'tok_AAAAAAAAAAAAAAAA.acme';
    const claims = {
      v: 1,
      jti: id,
      ten: 'acme',
      scp: ['mcp'],
      ro: true,
      iat: seconds(),
      exp: seconds() + 120,
    };
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      await expect(verify(legacy(claims))).resolves.toMatchObject({
        tenant: 'acme',
        readOnly: true,
        tokenId: id,
      });
      await expect(verify(legacy(claims))).resolves.toBeDefined();
      expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      warn.mockRestore();
    }
    const valid = await refusalOf(verify('eyJ.eyJ.x'));
    const token = legacy(claims);
    for (const bad of [
      legacy(claims, OTHER_KEY),
      legacy({ ...claims, ten: 'globex' }),
      `${token.slice(0, 10)}${flip(token, 10).slice(10)}`,
      legacy({ ...claims, scp: ['builder'] }),
    ]) {
      expect(await refusalOf(verify(bad))).toEqual(valid);
    }
    await revocations.revoke(ACME, id, new Date(claims.exp * 1000));
    expect(await refusalOf(verify(token))).toEqual(valid);
    await revocations.revoke(ACME, 'none', new Date(0));
    clock.advance(121_000);
    expect(await refusalOf(verify(legacy({ ...claims, jti: 'tok_BBBBBBBBBBBBBBBB.acme' })))).toEqual(valid);
  });
});

describe('the token keys', () => {
  const fromEnv = (env: NodeJS.ProcessEnv) => {
    try {
      return TokenKeys.fromEnv(env);
    } catch (error) {
      return error as Error;
    }
  };

  it('come from TOOLSTEPS_TOKEN_KEY (id default) or TOOLSTEPS_TOKEN_KEYS (ids, first signs), never shown', () => {
    const secret = 'a-long-enough-server-key-0123456789';
    const single = TokenKeys.fromEnv({ TOOLSTEPS_TOKEN_KEY: secret });
    expect(single.signing.id).toBe('default');
    const list = TokenKeys.fromEnv({ TOOLSTEPS_TOKEN_KEYS: `2026-11=${secret}=, 2026-08=${secret}x\n` });
    expect(list.all().map((key) => key.id)).toEqual(['2026-11', '2026-08']);
    expect(list.byId('2026-08')).toBeDefined();
    expect(list.byId('nope')).toBeUndefined();
    for (const shown of [
      JSON.stringify({ single, list, key: list.signing }),
      inspect(list),
      inspect(list.signing),
    ]) {
      expect(shown).not.toContain(secret);
    }
    expect(TokenKeys.configured({})).toBe(false);
    expect(TokenKeys.configured({ TOOLSTEPS_TOKEN_KEYS: 'a=b' })).toBe(true);
  });

  it('refuse a missing, short or malformed configuration without echoing the key', () => {
    const short = 'short-key-0123456789';
    const long = 'a-long-enough-server-key-0123456789';
    const cases: [NodeJS.ProcessEnv, string][] = [
      [{}, 'missing'],
      [{ TOOLSTEPS_TOKEN_KEY: short }, 'too_short'],
      [{ TOOLSTEPS_TOKEN_KEYS: `k=${short}` }, 'too_short'],
      [{ TOOLSTEPS_TOKEN_KEYS: long }, 'malformed'],
      [{ TOOLSTEPS_TOKEN_KEYS: `k=${long} k=${long}x` }, 'malformed'],
      [{ TOOLSTEPS_TOKEN_KEYS: `k/1=${long}` }, 'malformed'],
      [{ TOOLSTEPS_TOKEN_KEY: long, TOOLSTEPS_TOKEN_KEYS: `k=${long}` }, 'malformed'],
    ];
    for (const [env, problem] of cases) {
      const caught = fromEnv(env);
      expect(caught, JSON.stringify(Object.keys(env))).toMatchObject({ code: 'token_key_invalid', problem });
      expect(JSON.stringify(caught) + String(caught)).not.toContain(short);
      expect(JSON.stringify(caught) + String(caught)).not.toContain(long);
    }
  });
});
