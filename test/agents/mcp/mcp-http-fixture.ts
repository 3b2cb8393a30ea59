import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type McpHttpServeOptions, serveMcpHttp } from '../../../src/agents/mcp/serve-mcp.js';
import type { SandboxFixture } from '../../support/sandbox-fixture.js';

/**
 * The MCP HTTP server over a fixture's catalogue and runtime as these tests
 * run it: one tool per step, and no watching of the connection store.
 * `options` add to that (a token, a clock, session limits).
 */
export function serveFlat(
  fixture: Pick<SandboxFixture, 'registry' | 'runtime'>,
  options: Partial<McpHttpServeOptions> = {},
) {
  return serveMcpHttp({
    registry: fixture.registry,
    runtime: fixture.runtime,
    mode: 'flat',
    watchIntervalMs: 0,
    ...options,
  });
}

/** An MCP client of the server at `url`, sending `token` as its bearer token when given. */
export async function connectHttp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'toolsteps-http-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}
