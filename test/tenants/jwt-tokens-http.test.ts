import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eitherTokenVerifier } from '../../src/builder/scoped-token-verifier.js';
import { SessionTokens } from '../../src/builder/session-tokens.js';
import { type RunningMcpHttpServer, serveMcpHttp } from '../../src/mcp/transports/serve-mcp.js';
import { parseTenantId } from '../../src/model/tenant-id.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { MemoryTokenRevocations } from '../../src/store/memory/memory-token-revocations.js';
import { TokenKey } from '../../src/tenants/token-key.js';
import { TokenKeys } from '../../src/tenants/token-keys.js';
import { verifyToken } from '../../src/tenants/verify-token.js';
import { createRegistry } from '../../steps/index.js';
import { type BuilderWorld, openBuilderWorld } from '../builder/builder-fixture.js';
import { INITIALIZE, MCP_ACCEPT, postMcp } from '../mcp/mcp-http-fixture.js';

/**
 * Scoped tokens as an embedder's backend mints them, against real servers
 * over HTTP: the Python snippet of docs/tenants.md (standard library only)
 * makes them, the builder API and the MCP server take them, and every bad
 * one gets the same 401.
 */

const OLD_SECRET = 'the-old-deployment-key-0123456789abcdef';
const NEW_SECRET = 'the-new-deployment-key-0123456789abcdef';
const OLD = new TokenKey(OLD_SECRET, { id: '2026-08' });
const NEW = new TokenKey(NEW_SECRET, { id: '2026-11' });
const run = promisify(execFile);
const revocations = new MemoryTokenRevocations();
/** The servers' keys, as their environment would set them; a test swaps them as an operator restarts with new ones. */
let keys = new TokenKeys([OLD]);
let snippetDir: string;
let builder: BuilderWorld;
let mcp: RunningMcpHttpServer;

interface MintArgs {
  key: string;
  kid: string;
  tenant: string;
  scopes: string[];
  ttl_seconds?: number;
  read_only?: boolean;
  integrations?: string[];
  user?: string;
}

/** Tokens from the docs' Python function, run with python3 as it stands in the page (one run for all). */
async function mintWithPython(...calls: MintArgs[]): Promise<string[]> {
  const program = `import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom mint_snippet import mint_toolsteps_token\nfor args in json.loads(sys.argv[2]):\n    print(mint_toolsteps_token(**args))`;
  const { stdout } = await run('python3', ['-c', program, snippetDir, JSON.stringify(calls)]);
  return stdout.trim().split('\n');
}

/** The fenced block right after the `mint-python` marker in docs/tenants.md. */
async function docSnippet(): Promise<string> {
  const page = await readFile(path.join(import.meta.dirname, '../../docs/tenants.md'), 'utf8');
  const found = /<!-- mint-python[^>]*-->\n```python\n([\s\S]*?)\n```/.exec(page);
  if (!found) throw new Error('docs/tenants.md has no mint-python snippet');
  return found[1]!;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header and claims, HMAC-signed by hand. */
function handMade(header: Record<string, unknown>, claims: Record<string, unknown>, secret = OLD_SECRET) {
  const body = `${b64(header)}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** Status and body of the builder API's connection list with `token`. */
async function onBuilder(token: string) {
  const answer = await builder.api('/v1/connections', { token });
  return { status: answer.status, body: await answer.text() };
}

/** Status and body of an MCP initialize with `token`. */
async function onMcp(token: string) {
  const answer = await postMcp(mcp.url, token, INITIALIZE);
  return { status: answer.status, body: answer.status === 200 ? '' : await answer.text() };
}

beforeAll(async () => {
  snippetDir = await mkdtemp(path.join(tmpdir(), 'toolsteps-mint-'));
  await writeFile(path.join(snippetDir, 'mint_snippet.py'), await docSnippet());
  // As `toolsteps serve` and `mcp --http` wire them (cli/builder-launch.ts, cli/mcp-token-access.ts), the keys read per request.
  const scoped = (scope: 'builder' | 'mcp') => (bearer: string) =>
    verifyToken(bearer, { keys, revocations, scope });
  builder = await openBuilderWorld({
    tokens: eitherTokenVerifier(new SessionTokens(), { verifyToken: scoped('builder') }),
  });
  const stores = new MemoryTenantStores();
  mcp = await serveMcpHttp({
    registry: createRegistry(),
    runtime: new Runtime({ tenantStores: stores, transport: 'fetch' }),
    mode: 'flat',
    watchIntervalMs: 0,
    tokenAccess: {
      verify: scoped('mcp'),
      runtimeFor: (tenant) => new Runtime({ tenant, tenantStores: stores, transport: 'fetch' }),
    },
  });
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await builder?.close();
  if (snippetDir) await rm(snippetDir, { recursive: true, force: true });
});

describe('a token minted by a backend that is not Node (the docs Python snippet, standard library only)', () => {
  it('is accepted by the builder API and the MCP server, for its tenant only', async () => {
    const base = { key: OLD_SECRET, kid: '2026-08', tenant: 'acme' };
    const [forBuilder, forMcp] = (await mintWithPython(
      { ...base, scopes: ['builder'], user: 'user-42' },
      { ...base, scopes: ['mcp'], read_only: true, integrations: ['ticketing'] },
    )) as [string, string];
    expect(await onBuilder(forBuilder)).toEqual({ status: 200, body: expect.stringContaining('[') });
    expect((await onMcp(forMcp)).status).toBe(200);
    expect((await onMcp(forBuilder)).status).toBe(401);
    const principal = await verifyToken(forMcp, { keys, revocations, scope: 'mcp' });
    expect(principal).toMatchObject({ tenant: 'acme', readOnly: true, integrations: ['ticketing'] });
  });

  it('is refused with the one 401 when tampered, and so is every other failure class, on both servers', async () => {
    const base = { key: OLD_SECRET, kid: '2026-08', tenant: 'acme' };
    const both = { ...base, scopes: ['builder', 'mcp'] };
    const [good, revoked, anotherKey, unknownKid, expired, mcpOnly] = (await mintWithPython(
      both,
      both,
      { ...both, key: 'some-other-deployment-key-0123456789' },
      { ...both, kid: 'nope' },
      { ...both, ttl_seconds: -1 },
      { ...base, scopes: ['mcp'] },
    )) as [string, string, string, string, string, string];
    const claims = claimsOf(good);
    const header = { alg: 'HS256', typ: 'JWT', kid: '2026-08' };
    const now = Math.floor(Date.now() / 1000);
    const [h, , s] = good.split('.') as [string, string, string];
    await revocations.revoke(
      parseTenantId('acme'),
      String(claimsOf(revoked).jti),
      new Date((now + 900) * 1000),
    );
    const bad: Record<string, string> = {
      malformed: 'eyJhbGciOi.not-a-token',
      tampered: `${h}.${b64({ ...claims, toolsteps: { tenant: 'globex', readOnly: false } })}.${s}`,
      tamperedExpiry: `${h}.${b64({ ...claims, exp: Number(claims.exp) + 86_400 })}.${s}`,
      anotherKey,
      unknownKid,
      algNone: `${b64({ alg: 'none', typ: 'JWT', kid: '2026-08' })}.${b64(claims)}.`,
      algHs512: `${b64({ ...header, alg: 'HS512' })}.${b64(claims)}.${createHmac('sha512', OLD_SECRET)
        .update(`${b64({ ...header, alg: 'HS512' })}.${b64(claims)}`)
        .digest('base64url')}`,
      algRs256: handMade({ ...header, alg: 'RS256' }, claims),
      expired,
      notYetValid: handMade(header, { ...claims, nbf: now + 600 }),
      tooLong: handMade(header, { ...claims, exp: now + 91 * 86_400 }),
      unknownClaim: handMade(header, { ...claims, role: 'admin' }),
      tenantNotTheIds: handMade(header, { ...claims, toolsteps: { tenant: 'globex', readOnly: false } }),
      revoked,
    };
    const builderRefusal = await onBuilder('garbage');
    const mcpRefusal = await onMcp('garbage');
    expect(builderRefusal.status).toBe(401);
    expect(mcpRefusal.status).toBe(401);
    // A token that was sent is never called missing: the client would look for the wrong fault.
    expect(mcpRefusal.body).toContain('The bearer token is not valid.');
    const withoutToken = await fetch(mcp.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MCP_ACCEPT },
      body: JSON.stringify(INITIALIZE),
    });
    expect({ status: withoutToken.status, body: await withoutToken.text() }).toEqual({
      status: 401,
      body: expect.stringContaining('A bearer token is required.'),
    });
    for (const [name, token] of Object.entries(bad)) {
      expect(await onBuilder(token), name).toEqual(builderRefusal);
      expect(await onMcp(token), name).toEqual(mcpRefusal);
    }
    // Over 4,096 characters the bearer is not read at all: the builder answers as for no token.
    const oversized = `${h}.${'eyJ'.padEnd(5000, 'A')}.${s}`;
    expect(await onBuilder(oversized)).toEqual({
      status: 401,
      body: expect.stringContaining('A bearer token is required'),
    });
    expect(await onMcp(oversized)).toEqual(mcpRefusal);
    expect(await onBuilder(mcpOnly), 'wrong scope').toEqual(builderRefusal);
    expect((await onBuilder(good)).status).toBe(200);
    expect((await onMcp(good)).status).toBe(200);
  });
});

describe('rotation, revocation and the tst_ tokens of earlier releases, over HTTP', () => {
  it('takes a token of the old key while both keys are configured, and refuses it once the old key is removed', async () => {
    const both = { tenant: 'acme', scopes: ['builder', 'mcp'] };
    const [old, fresh] = (await mintWithPython(
      { ...both, key: OLD_SECRET, kid: '2026-08' },
      { ...both, key: NEW_SECRET, kid: '2026-11' },
    )) as [string, string];
    try {
      keys = new TokenKeys([NEW, OLD]);
      for (const token of [old, fresh]) {
        expect((await onBuilder(token)).status).toBe(200);
        expect((await onMcp(token)).status).toBe(200);
      }
      keys = new TokenKeys([NEW]);
      expect((await onBuilder(old)).status).toBe(401);
      expect((await onMcp(old)).status).toBe(401);
      expect((await onBuilder(fresh)).status).toBe(200);
    } finally {
      keys = new TokenKeys([OLD]);
    }
  });

  it('refuses a token from the request after its revocation, on both servers', async () => {
    const [token] = (await mintWithPython({
      key: OLD_SECRET,
      kid: '2026-08',
      tenant: 'acme',
      scopes: ['builder', 'mcp'],
    })) as [string];
    expect((await onBuilder(token)).status).toBe(200);
    const { jti, exp } = claimsOf(token) as { jti: string; exp: number };
    await revocations.revoke(parseTenantId('acme'), jti, new Date(exp * 1000));
    expect((await onBuilder(token)).status).toBe(401);
    expect((await onMcp(token)).status).toBe(401);
  });

  it('still takes a tst_ token made before the upgrade until it expires', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      v: 1,
      jti: 'tok_LegacyLegacy0001.acme',
      ten: 'acme',
      scp: ['builder'],
      ro: false,
      iat: now,
      exp: now + 600,
    };
    const body = `tst_${b64(claims)}`;
    const legacy = `${body}.${OLD.sign(body)}`;
    expect((await onBuilder(legacy)).status).toBe(200);
    const lapsed = `tst_${b64({ ...claims, exp: now - 1 })}`;
    expect((await onBuilder(`${lapsed}.${OLD.sign(lapsed)}`)).status).toBe(401);
  });
});
