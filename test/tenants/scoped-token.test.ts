import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { AuthError } from '../../src/errors/auth-error.js';
import { signToken } from '../../src/tenants/sign-token.js';
import { parseTenantId } from '../../src/tenants/tenant-id.js';
import { TokenKey } from '../../src/tenants/token-key.js';
import { MemoryTokenRevocations } from '../../src/tenants/token-revocations.js';
import { verifyToken } from '../../src/tenants/verify-token.js';

const KEY = new TokenKey('this-server-key-0123456789-abcdef');
const OTHER_KEY = new TokenKey('another-server-key-0123456789-abcdef');
const ACME = parseTenantId('acme');
const HOUR = 3_600_000;

function world() {
  const clock = new ManualClock();
  const revocations = new MemoryTokenRevocations(clock);
  const sign = (extra: Partial<Parameters<typeof signToken>[0]> = {}) =>
    signToken({ tenant: ACME, scopes: ['mcp'], ttlMs: HOUR, key: KEY, clock, ...extra });
  const verify = (bearer: unknown, scope: 'mcp' | 'builder' = 'mcp', key = KEY) =>
    verifyToken(bearer, { key, revocations, scope, clock });
  return { clock, revocations, sign, verify };
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
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.slice(4, token.indexOf('.')), 'base64url').toString()) as Record<
    string,
    unknown
  >;

describe('scoped tokens', () => {
  it('sign and verify to the tenant, scopes, allow-list, read-only flag and expiry given', async () => {
    const { sign, verify, clock } = world();
    const signed = sign({ integrations: ['ticketing'], readOnly: true });
    expect(signed.token).toMatch(/^tst_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(signed.tokenId).toMatch(/^tok_[A-Za-z0-9_-]{16}\.acme$/);
    const principal = await verify(signed.token);
    expect(principal).toEqual({
      tokenId: signed.tokenId,
      tenant: 'acme',
      scopes: ['mcp'],
      integrations: ['ticketing'],
      readOnly: true,
      expiresAt: new Date(Math.floor((clock.now() + HOUR) / 1000) * 1000),
    });
    expect(JSON.stringify(principal)).not.toContain(signed.token);
  });

  it('refuse, all alike, a token tampered in any part, another key, a wrong scope, an expired or a revoked one', async () => {
    const { sign, verify, clock, revocations } = world();
    const { token, tokenId, expiresAt } = sign();
    const valid = await refusalOf(verify('tst_x.y'));
    const [body, signature] = token.split('.') as [string, string];
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forged = { ...claimsOf(token), ten: 'globex', jti: tokenId.replace('.acme', '.globex') };
    const cases = [
      `${flip(body, 5)}.${signature}`,
      `${body}.${flip(signature, 0)}`,
      `${body}.${flip(signature, 42)}`,
      `${body}x.${signature}`,
      `tst_${b64(forged)}.${signature}`,
      `tst_${b64(forged)}.${OTHER_KEY.sign(`tst_${b64(forged)}`)}`,
      `TST_${token.slice(4)}`,
      `${token} `,
      token.toUpperCase(),
      signature,
      '',
      42,
      undefined,
      'x'.repeat(10_000),
    ];
    for (const bad of cases) expect(await refusalOf(verify(bad))).toEqual(valid);
    expect(await refusalOf(verify(token, 'mcp', OTHER_KEY))).toEqual(valid);
    expect(await refusalOf(verify(token, 'builder'))).toEqual(valid);
    await expect(verify(token)).resolves.toMatchObject({ tenant: 'acme' });
    await revocations.revoke(ACME, tokenId, expiresAt);
    expect(await refusalOf(verify(token))).toEqual(valid);
    const later = sign();
    clock.advance(HOUR);
    expect(await refusalOf(verify(later.token))).toEqual(valid);
  });

  it('work until the second they expire, by the clock given', async () => {
    const { sign, verify, clock } = world();
    const { token, expiresAt } = sign({ ttlMs: 120_000 });
    clock.advance(expiresAt.getTime() - clock.now() - 1);
    await expect(verify(token)).resolves.toBeDefined();
    clock.advance(1);
    await expect(verify(token)).rejects.toBeInstanceOf(AuthError);
  });

  it('bind a token to its own tenant: a revocation in another tenant, or of another id, changes nothing', async () => {
    const { sign, verify, revocations } = world();
    const acme = sign();
    const globex = sign({ tenant: parseTenantId('globex') });
    await revocations.revoke(parseTenantId('globex'), acme.tokenId, acme.expiresAt);
    await revocations.revoke(ACME, globex.tokenId, globex.expiresAt);
    await expect(verify(acme.token)).resolves.toMatchObject({ tenant: 'acme' });
    await expect(verify(globex.token)).resolves.toMatchObject({ tenant: 'globex' });
  });

  it('are made only for a valid tenant, known scopes, integration ids and a life of 1 minute to 90 days', () => {
    const { sign } = world();
    for (const tenant of ['Acme', '../b', 'a/../b', '%2e%2e', '', 'a.b']) {
      expect(() => sign({ tenant: tenant as never })).toThrow(
        expect.objectContaining({ code: 'input_invalid' }),
      );
    }
    expect(() => sign({ scopes: ['admin' as never] })).toThrow(
      expect.objectContaining({ code: 'input_invalid' }),
    );
    expect(() => sign({ scopes: [] })).toThrow(expect.objectContaining({ code: 'input_invalid' }));
    expect(() => sign({ integrations: ['Ticketing'] })).toThrow(
      expect.objectContaining({ code: 'input_invalid' }),
    );
    expect(() => sign({ ttlMs: 59_000 })).toThrow(expect.objectContaining({ code: 'input_invalid' }));
    expect(() => sign({ ttlMs: 91 * 24 * HOUR })).toThrow(expect.objectContaining({ code: 'input_invalid' }));
    expect(sign({ scopes: ['mcp', 'builder', 'mcp'] }).scopes).toEqual(['mcp', 'builder']);
  });
});

describe('the token key', () => {
  it('is read from TOOLSTEPS_TOKEN_KEY only, refused when missing or shorter than 32 bytes, and never shown', () => {
    expect(() => TokenKey.fromEnv({})).toThrow(expect.objectContaining({ code: 'token_key_invalid' }));
    const short = 'short-key-0123456789';
    let caught: unknown;
    try {
      TokenKey.fromEnv({ TOOLSTEPS_TOKEN_KEY: short });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'token_key_invalid', problem: 'too_short' });
    expect(JSON.stringify(caught)).not.toContain(short);
    const secret = 'a-long-enough-server-key-0123456789';
    const key = TokenKey.fromEnv({ TOOLSTEPS_TOKEN_KEY: secret });
    expect(JSON.stringify({ key })).not.toContain(secret);
    expect(inspect(key)).not.toContain(secret);
  });
});
