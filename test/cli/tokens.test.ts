import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { FileTenantStores } from '../../src/store/files/file-tenant-stores.js';
import { TokenKey } from '../../src/tenants/token-key.js';
import { TokenKeys } from '../../src/tenants/token-keys.js';
import { verifyToken } from '../../src/tenants/verify-token.js';
import { callText } from '../mcp/mcp-child.js';
import { connectHttp } from '../mcp/mcp-http-fixture.js';
import { freePort, untilListening } from '../support/ports.js';
import { countingProvider, deskConnection } from '../tenants/isolation/two-tenants.js';
import { cli, jsonError, useCliHome } from './cli-harness.js';

const KEY = 'cli-suite-token-key-0123456789abcdefgh';
const ACME = parseTenantId('acme');
const home = useCliHome('toolsteps-tokens-', {
  scope: 'all',
  env: ['TOOLSTEPS_TOKEN_KEY', 'TOOLSTEPS_TOKEN_KEYS'],
});
const json = (result: { out: string }) => JSON.parse(result.out);

beforeAll(() => {
  process.env.TOOLSTEPS_TOKEN_KEY = KEY;
});

/** `toolsteps --tenant acme tokens create` with `flags`. */
const createToken = (...flags: string[]) => cli('--tenant', ACME, 'tokens', 'create', ...flags);

describe('toolsteps tokens create', () => {
  it('prints a token for --tenant that the key verifies, and with --json its id, scopes and expiry', async () => {
    const before = Date.now();
    const made = await createToken('--scope', 'mcp,builder', '--ttl', '30m', '--json');
    expect(made.code).toBe(0);
    const printed = json(made);
    expect(printed).toMatchObject({ tenant: 'acme', scopes: ['mcp', 'builder'], readOnly: false });
    expect(printed.id).toMatch(/^tok_.{16}\.acme$/);
    const expires = Date.parse(printed.expiresAt);
    expect(expires).toBeGreaterThan(before + 29 * 60_000);
    expect(expires).toBeLessThanOrEqual(before + 30 * 60_000 + 1000);
    const stores = new FileTenantStores(home());
    const principal = await verifyToken(printed.token, {
      keys: new TokenKeys([new TokenKey(KEY)]),
      revocations: stores.revocations,
      scope: 'builder',
    });
    expect(principal.tokenId).toBe(printed.id);
  });

  it('prints the token alone on stdout and what it grants on stderr, never the key', async () => {
    const made = await createToken('--scope', 'mcp', '--integrations', 'ticketing', '--read-only');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\n$/);
    expect(made.err).toContain('tenant acme');
    expect(made.err).toContain('integrations ticketing, read-only');
    expect(made.err).toContain('toolsteps tokens revoke tok_');
    expect(made.err).not.toContain(made.out.trim());
    expect(made.out + made.err).not.toContain(KEY);
  });

  it('takes the key from TOOLSTEPS_TOKEN_KEY only: missing or short is refused, a --key option is unknown and not echoed', async () => {
    delete process.env.TOOLSTEPS_TOKEN_KEY;
    const missing = await cli('tokens', 'create', '--scope', 'mcp', '--json');
    process.env.TOOLSTEPS_TOKEN_KEY = 'too-short-a-key';
    const short = await cli('tokens', 'create', '--scope', 'mcp', '--json');
    process.env.TOOLSTEPS_TOKEN_KEY = KEY;
    for (const refused of [missing, short]) {
      // A configuration failure, as a missing encryption key is: exit 1.
      expect(refused.code).toBe(1);
      expect(jsonError(refused)).toMatchObject({ code: 'token_key_invalid' });
      expect(refused.out + refused.err).not.toContain('too-short-a-key');
    }
    expect(jsonError(short).message).toContain('too short');
    const onLine = await cli('tokens', 'create', '--scope', 'mcp', `--key=${KEY}`);
    expect(onLine.code).toBe(2);
    expect(onLine.out + onLine.err).not.toContain(KEY);
  });

  it('refuses an unknown scope or integration, a bad --ttl and a malformed tenant before signing', async () => {
    for (const args of [
      ['tokens', 'create', '--scope', 'admin'],
      ['tokens', 'create'],
      ['tokens', 'create', '--scope', 'mcp', '--integrations', 'nosuch'],
      ['tokens', 'create', '--scope', 'mcp', '--ttl', '91d'],
      ['tokens', 'create', '--scope', 'mcp', '--ttl', '10'],
      ['--tenant', 'Acme', 'tokens', 'create', '--scope', 'mcp'],
    ]) {
      const refused = await cli(...args, '--json');
      expect(refused.code, args.join(' ')).toBe(2);
      expect(jsonError(refused).code, args.join(' ')).toBe('input_invalid');
      expect(refused.out).not.toContain('eyJ');
    }
  });
});

describe('toolsteps tokens create with TOOLSTEPS_TOKEN_KEYS', () => {
  it('signs with the first key under its kid, and a server holding both keys verifies either', async () => {
    const next = 'the-next-cli-suite-token-key-0123456789';
    delete process.env.TOOLSTEPS_TOKEN_KEY;
    process.env.TOOLSTEPS_TOKEN_KEYS = `2026-11=${next}, default=${KEY}`;
    try {
      const made = await createToken('--scope', 'mcp', '--json');
      expect(made.code, made.err).toBe(0);
      const { token } = json(made);
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256', kid: '2026-11' });
      expect(made.out + made.err).not.toContain(next);
      const stores = new FileTenantStores(home());
      const verify = (keys: TokenKeys) =>
        verifyToken(token, { keys, revocations: stores.revocations, scope: 'mcp' });
      await expect(verify(TokenKeys.fromEnv(process.env))).resolves.toMatchObject({ tenant: 'acme' });
      await expect(verify(new TokenKeys([new TokenKey(KEY)]))).rejects.toMatchObject({ code: 'auth_failed' });
      process.env.TOOLSTEPS_TOKEN_KEY = KEY;
      const both = await createToken('--scope', 'mcp', '--json');
      expect(both.code).toBe(1);
      expect(jsonError(both)).toMatchObject({ code: 'token_key_invalid' });
      expect(jsonError(both).message).toContain('not both');
    } finally {
      delete process.env.TOOLSTEPS_TOKEN_KEYS;
      process.env.TOOLSTEPS_TOKEN_KEY = KEY;
    }
  });
});

describe('toolsteps tokens revoke', () => {
  it("files the revocation under the id's own tenant, and refuses a malformed id or a different --tenant", async () => {
    const { id } = json(await createToken('--scope', 'mcp', '--json'));
    expect((await cli('--tenant', 'globex', 'tokens', 'revoke', id, '--json')).code).toBe(2);
    for (const bad of ['../../x', 'tok_short.acme', 'tok_AAAAAAAAAAAAAAAA.Acme']) {
      const refused = await cli('tokens', 'revoke', bad, '--json');
      expect(refused.code, bad).toBe(2);
      expect(jsonError(refused).code).toBe('input_invalid');
    }
    const revoked = await cli('tokens', 'revoke', id, '--json');
    expect(json(revoked)).toEqual({ id, tenant: 'acme', revoked: true });
    expect(await readdir(path.join(home(), 'tenants', 'acme', 'tokens', 'revoked'))).toEqual([id]);
  });
});

describe('toolsteps mcp --http with TOOLSTEPS_TOKEN_KEY', () => {
  let provider: Awaited<ReturnType<typeof countingProvider>>;
  beforeAll(async () => {
    provider = await countingProvider();
    await new FileTenantStores(home())
      .forTenant(ACME)
      .connections.put(deskConnection('desk', 'acme-secret', provider.url));
  });
  afterAll(async () => {
    await provider?.close();
  });

  it("serves the printed token's tenant, and refuses it once revoked", async () => {
    const { token, id } = json(await createToken('--scope', 'mcp', '--json'));
    const port = await freePort();
    const serving = cli('mcp', '--http', '--port', String(port), '--flat', '--watch-interval', '0');
    await untilListening(port);
    const url = `http://127.0.0.1:${port}/mcp`;
    try {
      const client = await connectHttp(url, token);
      const answer = await callText(client, 'ticketing__api_call', {
        method: 'GET',
        endpoint: '/api/v2/tickets.json',
      });
      expect(answer.isError).toBeFalsy();
      expect(provider.seen).toEqual([expect.stringContaining('Bearer acme-secret')]);
      await client.close();
      // What `tokens revoke` files (another CLI run cannot share this process's stdout meanwhile).
      await new FileTenantStores(home()).revocations.revoke(ACME, id, new Date(Date.now() + 3_600_000));
      await expect(connectHttp(url, token)).rejects.toThrow(/bearer token is not valid/);
    } finally {
      process.emit('SIGTERM');
      await serving;
    }
  });
});
