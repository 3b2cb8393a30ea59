import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningMcpServer, serveMcpHttp } from '../../../src/mcp/transports/serve-mcp.js';
import { cli, jsonError, useCliHome } from '../../cli/cli-harness.js';
import { type TicketingFixture, ticketingFixture } from '../../support/ticketing-fixture.js';
import { connectHttp, INITIALIZE, MCP_ACCEPT, serveFlat } from './mcp-http-fixture.js';

const TOKEN = 'mcp-bearer-token-for-tests-31c9';

/** A raw POST, with headers fetch would not let us set (Host). */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: MCP_ACCEPT,
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(INITIALIZE));
  });
}

const connect = connectHttp;

describe('toolsteps mcp over Streamable HTTP', () => {
  let fixture: TicketingFixture;
  let server: RunningMcpServer & { url: string };

  beforeAll(async () => {
    fixture = await ticketingFixture();
    server = await serveFlat(fixture, { token: TOKEN });
  });

  afterAll(async () => {
    await server?.close();
    await fixture?.close();
  });

  it('binds 127.0.0.1 and serves the official client that sends the token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.url, TOKEN);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('ticketing__create_ticket');
    const result = await client.callTool({
      name: 'ticketing__create_ticket',
      arguments: { subject: 'Over HTTP', description: 'd' },
    });
    expect(result.structuredContent).toMatchObject({ output: { ticket: { subject: 'Over HTTP' } } });
    expect(JSON.stringify([tools, result])).not.toContain(fixture.connection.secrets.accessToken);
    await client.close();
  });

  it('refuses a client without the token', async () => {
    await expect(connect(server.url)).rejects.toThrow();
    await expect(connect(server.url, 'wrong-token')).rejects.toThrow();
    expect(await post(server.url, {})).toBe(401);
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding), even with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(await post(server.url, { ...auth, origin: 'http://evil.example' })).toBe(403);
    expect(await post(server.url, { ...auth, host: 'evil.example' })).toBe(403);
    expect(await post(server.url, { ...auth, origin: 'http://localhost:6274' })).toBe(200);
    expect(await post(server.url.replace(/\/mcp$/, '/other'), auth)).toBe(404);
    expect(await post(server.url.replace(/\/mcp$/, '/other'), { origin: 'http://evil.example' })).toBe(403);
  });

  it('takes a listed origin', async () => {
    const listed = await serveMcpHttp({
      registry: fixture.registry,
      runtime: fixture.runtime,
      allowedOrigins: ['https://agents.example.com'],
      watchIntervalMs: 0,
    });
    try {
      expect(await post(listed.url, { origin: 'https://agents.example.com' })).toBe(200);
      expect(await post(listed.url, { origin: 'https://other.example.com' })).toBe(403);
    } finally {
      await listed.close();
    }
  });
});

describe('toolsteps mcp --http on a host that is not loopback', () => {
  useCliHome('toolsteps-mcp-http-', { scope: 'all', env: ['TOOLSTEPS_TEST_EMPTY_TOKEN'] });

  it('refuses to start without --token-env (exit 2), naming the flag', async () => {
    const result = await cli('--json', 'mcp', '--http', '--host', '0.0.0.0', '--port', '0');
    expect(result.code).toBe(2);
    expect(jsonError(result)).toMatchObject({ code: 'input_invalid' });
    expect(jsonError(result).message).toContain('--token-env');
  });

  it('refuses a --token-env that names an empty variable, without echoing anything', async () => {
    vi.stubEnv('TOOLSTEPS_TEST_EMPTY_TOKEN', '');
    const result = await cli(
      '--json',
      'mcp',
      '--http',
      '--host',
      '0.0.0.0',
      '--token-env',
      'TOOLSTEPS_TEST_EMPTY_TOKEN',
    );
    expect(result.code).toBe(2);
    expect(jsonError(result).message).toContain('TOOLSTEPS_TEST_EMPTY_TOKEN');
  });
});
