import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpTokenAccess } from '../../../src/mcp/tools/mcp-grant.js';
import { type RunningMcpHttpServer, serveMcpHttp } from '../../../src/mcp/transports/serve-mcp.js';
import { DEFAULT_TENANT } from '../../../src/model/tenant-id.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import { TokenKey } from '../../../src/tenants/token-key.js';
import { TokenKeys } from '../../../src/tenants/token-keys.js';
import { verifyToken } from '../../../src/tenants/verify-token.js';
import { createRegistry } from '../../../steps/index.js';
import { cli, useCliHome } from '../../cli/cli-harness.js';
import { callText, errorOf } from '../../mcp/mcp-child.js';
import { connectHttp, INITIALIZE, LIST_TOOLS, postMcp } from '../../mcp/mcp-http-fixture.js';
import { A, A_ONLY, A_TOKEN, B, B_TOKEN, countingProvider, deskConnection, shapeOf } from './two-tenants.js';

const KEY_TEXT = 'isolation-suite-token-key-0123456789abcdef';
const SINGLE = 'the-single-server-token-0123456789';
const DEFAULT_DESK = 'default-desk';
const home = useCliHome('toolsteps-isolation-mcp-http-', { scope: 'all', env: ['TOOLSTEPS_TOKEN_KEY'] });
let provider: Awaited<ReturnType<typeof countingProvider>>;
let server: RunningMcpHttpServer;
const clients: Client[] = [];

/** `toolsteps --tenant <tenant> tokens create ...` as an operator runs it: the printed token. */
async function token(tenant: string, ...flags: string[]): Promise<{ token: string; id: string }> {
  const made = await cli('--tenant', tenant, 'tokens', 'create', '--json', ...flags);
  expect(made.code, made.out + made.err).toBe(0);
  return JSON.parse(made.out) as { token: string; id: string };
}

async function client(bearer: string): Promise<Client> {
  const connected = await connectHttp(server.url, bearer);
  clients.push(connected);
  return connected;
}

/**
 * A raw request with `bearer`: an initialize, or with a session id a
 * tools/list in that session. Its status, and the answer's text.
 */
async function rawPost(bearer: string, session?: string) {
  const answer = await postMcp(server.url, bearer, session ? LIST_TOOLS : INITIALIZE, session);
  return { status: answer.status, text: await answer.text() };
}

const call = (connected: Client, name: string, args: Record<string, unknown>) =>
  callText(connected, name, args);
const apiCall = (connected: Client, connection: string) =>
  call(connected, 'ticketing__api_call', { connection, method: 'GET', endpoint: '/api/v2/tickets.json' });

beforeAll(async () => {
  process.env.TOOLSTEPS_TOKEN_KEY = KEY_TEXT;
  provider = await countingProvider();
  const stores = new FileTenantStores(home());
  await stores.forTenant(A).connections.put(deskConnection(A_ONLY, A_TOKEN, provider.url));
  await stores.forTenant(A).connections.put(deskConnection('support', A_TOKEN, provider.url));
  await stores.forTenant(B).connections.put(deskConnection('support', B_TOKEN, provider.url));
  await stores
    .forTenant(DEFAULT_TENANT)
    .connections.put(deskConnection(DEFAULT_DESK, 'default-secret', provider.url));
  const keys = new TokenKeys([new TokenKey(KEY_TEXT)]);
  // As `toolsteps mcp --http` builds it with TOOLSTEPS_TOKEN_KEY (cli/mcp-token-access.ts), over the same files.
  const tokenAccess: McpTokenAccess = {
    verify: (bearer) => verifyToken(bearer, { keys, revocations: stores.revocations, scope: 'mcp' }),
    // fetch's own dispatcher: each in-process `cli(...)` run closes the CLI's shared one when it ends.
    runtimeFor: (tenant) => new Runtime({ tenant, tenantStores: stores, transport: 'fetch' }),
  };
  server = await serveMcpHttp({
    registry: createRegistry(),
    runtime: new Runtime({ tenantStores: stores, transport: 'fetch' }),
    mode: 'flat',
    watchIntervalMs: 0,
    token: SINGLE,
    tokenAccess,
  });
});

afterAll(async () => {
  for (const connected of clients) await connected.close().catch(() => {});
  await server?.close();
  await provider?.close();
});

describe('MCP over HTTP with scoped tokens: the token decides the tenant', () => {
  it("b's token offers b's connections only, and refuses a's by id as one that exists nowhere", async () => {
    const b = await client((await token(B, '--scope', 'mcp')).token);
    const listed = JSON.stringify((await b.listTools()).tools);
    expect(listed).toContain('ticketing__api_call');
    expect(listed).not.toContain(A_ONLY);
    expect(listed).not.toContain(DEFAULT_DESK);
    provider.seen.length = 0;
    const foreign = await apiCall(b, A_ONLY);
    const nowhere = await apiCall(b, 'no-such-desk');
    expect(foreign.isError).toBe(true);
    expect(shapeOf(errorOf(foreign), A_ONLY)).toEqual(shapeOf(errorOf(nowhere), 'no-such-desk'));
    expect(provider.seen).toEqual([]);
    expect((await apiCall(b, 'support')).isError).toBeFalsy();
    expect(provider.seen).toEqual([expect.stringContaining(`Bearer ${B_TOKEN}`)]);
  });

  it("b's token cannot use a's session: answered as a session that does not exist", async () => {
    const a = await client((await token(A, '--scope', 'mcp')).token);
    await a.listTools();
    const session = (a.transport as { sessionId?: string }).sessionId as string;
    const bToken = (await token(B, '--scope', 'mcp')).token;
    const foreign = await rawPost(bToken, session);
    const nowhere = await rawPost(bToken, '00000000-0000-4000-8000-000000000000');
    expect(foreign.status).toBe(404);
    expect(foreign).toEqual(nowhere);
    expect(foreign.text).not.toContain(A_ONLY);
  });

  it('a revoked, expired, tampered, foreign-key or builder-scoped token gets 401 and nothing is sent', async () => {
    const live = await token(A, '--scope', 'mcp');
    const a = await client(live.token);
    const revoked = await cli('tokens', 'revoke', live.id);
    expect(revoked.code, revoked.err).toBe(0);
    provider.seen.length = 0;
    // The session it opened before is refused too, from the next request on.
    await expect(apiCall(a, 'support')).rejects.toThrow(/bearer token is not valid/);
    const { signToken } = await import('../../../src/tenants/sign-token.js');
    const foreignKey = await signToken({
      tenant: A,
      scopes: ['mcp'],
      ttlMs: 3_600_000,
      key: new TokenKey('another-deployment-key-0123456789abcdef'),
    });
    const expired = await signToken({
      tenant: A,
      scopes: ['mcp'],
      ttlMs: 60_000,
      key: new TokenKey(KEY_TEXT),
      clock: { now: () => Date.now() - 120_000, sleep: async () => {} },
    });
    const fresh = (await token(A, '--scope', 'mcp')).token;
    const tampered = fresh.replace(/.(?=\.)/, (char) => (char === 'A' ? 'B' : 'A'));
    const builder = (await token(A, '--scope', 'builder')).token;
    for (const bad of [live.token, foreignKey.token, expired.token, tampered, builder, 'tst_x.y']) {
      const answer = await rawPost(bad);
      expect(answer.status).toBe(401);
      expect(answer.text).not.toContain(A_ONLY);
    }
    expect(provider.seen).toEqual([]);
    expect((await rawPost(fresh)).status).toBe(200);
  });

  it('a read-only token is offered no write step, and a write by name is refused before sending', async () => {
    const a = await client((await token(A, '--scope', 'mcp', '--read-only')).token);
    const names = (await a.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('ticketing__get_ticket_info');
    expect(names).not.toContain('ticketing__create_ticket');
    expect(names).not.toContain('ticketing__api_call');
    provider.seen.length = 0;
    const write = await call(a, 'ticketing__create_ticket', {
      connection: 'support',
      subject: 's',
      comment: 'c',
    });
    expect(write.isError).toBe(true);
    expect(errorOf(write)).toMatchObject({ code: 'input_invalid' });
    expect(provider.seen).toEqual([]);
  });

  it('an integrations allow-list offers those integrations only', async () => {
    const a = await client((await token(A, '--scope', 'mcp', '--integrations', 'anz_data')).token);
    const names = (await a.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name.startsWith('ticketing__'))).toEqual([]);
  });

  it('the single --token-env token still works, and means the default tenant', async () => {
    const own = await client(SINGLE);
    provider.seen.length = 0;
    const mine = await apiCall(own, DEFAULT_DESK);
    expect(mine.isError).toBeFalsy();
    const foreign = await apiCall(own, A_ONLY);
    expect(foreign.isError).toBe(true);
    expect(errorOf(foreign)).toMatchObject({ code: 'not_found' });
    expect(provider.seen).toEqual([expect.stringContaining('Bearer default-secret')]);
  });

  it("a write through a token is in its tenant's audit trail under the token's id, and in no other tenant's", async () => {
    const made = await token(A, '--scope', 'mcp');
    const a = await client(made.token);
    const stores = new FileTenantStores(home());
    const before = (await stores.forTenant(B).audit.read()).length;
    expect((await apiCall(a, 'support')).isError).toBeFalsy();
    const trail = await stores.forTenant(A).audit.read();
    expect(trail.at(-1)).toMatchObject({
      step: 'ticketing.api_call',
      connection: 'support',
      caller: made.id,
    });
    expect(JSON.stringify(trail)).not.toContain(A_TOKEN);
    expect((await stores.forTenant(B).audit.read()).length).toBe(before);
  });
});
