import { createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/builder/sign-in-limits.js';
import { type BuilderWorld, openBuilderWorld, PAGE_ORIGIN } from './builder-fixture.js';

let world: BuilderWorld;
beforeAll(async () => {
  world = await openBuilderWorld({ maxBodyBytes: 4096, rateLimit: { requests: 5, windowMs: 60 * 60_000 } });
});
afterAll(() => world.close());

describe('what the builder API refuses', () => {
  it('no token, a forged one and an expired one: 401 with WWW-Authenticate, and nothing said about which', async () => {
    const expired = world.token('acme', { ttlMs: -1 });
    for (const token of [null, 'tsb_forged', expired]) {
      const answer = await world.api('/v1/connections', { token });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect((await answer.json()).error.code).toBe('unauthorized');
    }
  });

  it('a token without the builder scope: 403', async () => {
    const answer = await world.json('/v1/steps?q=zendesk', {
      token: world.token('acme', { scopes: ['mcp'] }),
    });
    expect([answer.status, answer.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('a foreign origin gets 403 and no CORS headers, before its token is even read; an allowed one gets them', async () => {
    const foreign = await world.api('/v1/steps?q=zendesk', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('origin_not_allowed');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await world.api('/v1/connections', {
      method: 'OPTIONS',
      token: null,
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    // Credentials for the allowed origin only, by name: the start of a sign-in stores its browser cookie.
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    const foreignPreflight = await world.api('/v1/connections', {
      method: 'OPTIONS',
      token: null,
      origin: 'https://evil.example',
    });
    expect(foreignPreflight.status).toBe(403);
    // A page on a rebound DNS name reaches loopback with its own Host (fetch cannot set Host, node:http can).
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${world.server.url}/v1/openapi.json`);
      request(url, { headers: { host: 'evil.example' } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
  });

  it('an oversized body is refused unread (413), malformed JSON and invalid fields are 400 with the fields', async () => {
    const token = world.token();
    const big = await world.json('/v1/connections', { token, body: { integration: 'x'.repeat(5000) } });
    expect([big.status, big.body.error.code]).toEqual([413, 'body_too_large']);
    const bad = await world.json('/v1/connections', { token, body: '{"integration":' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'input_invalid']);
    const invalid = await world.json('/v1/connections', { token, body: { integration: 7 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toEqual([{ path: 'integration', message: expect.any(String) }]);
  });

  it('a read-only token reads but changes nothing', async () => {
    const token = world.token('acme', { readOnly: true });
    expect((await world.api('/v1/connections', { token })).status).toBe(200);
    const write = await world.json('/v1/connections', {
      token,
      body: { integration: 'anz_data', apiKey: 'k' },
    });
    expect([write.status, write.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('an unknown route is 404 and a wrong method 405, both after the token check', async () => {
    const token = world.token();
    expect((await world.json('/v1/nothing-here', { token })).status).toBe(404);
    expect((await world.json('/v1/steps', { token, method: 'DELETE' })).status).toBe(405);
  });

  it('past its rate limit a token gets 429 with Retry-After; another token is not slowed', async () => {
    const token = world.token();
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1)
      statuses.push((await world.api('/v1/integrations', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await world.api('/v1/integrations', { token });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await world.api('/v1/integrations', { token: world.token() })).status).toBe(200);
  });

  it('the OpenAPI document needs no token', async () => {
    const answer = await world.json('/v1/openapi.json', { token: null, origin: null });
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
  });

  it('a page cannot name the host a sign-in exchanges its code at: the client secret goes only where the server says', async () => {
    const heard: string[] = [];
    const listener = createServer((incoming, answer) => {
      heard.push(`${incoming.method} ${incoming.url}`);
      answer.writeHead(400).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.address() as AddressInfo;
      for (const fields of [{ baseUrl: `http://127.0.0.1:${port}` }, { tokenUrl: 'https://evil.example' }]) {
        const answer = await world.json('/v1/connections', {
          token: world.token(),
          body: { integration: 'ticketing', fields: { subdomain: 'acme', ...fields } },
        });
        expect([answer.status, answer.body.error.code]).toEqual([400, 'input_invalid']);
        expect(answer.body.error.fields).toEqual([
          { path: `fields.${Object.keys(fields)[0]}`, message: 'set by the server, not the page' },
        ]);
      }
      expect(heard).toEqual([]);
    } finally {
      listener.close();
    }
  });

  it('a request line that is no URL is answered 400, and the server goes on serving', async () => {
    const { port } = new URL(world.server.url);
    const first = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text.split('\r\n')[0]!));
      socket.on('error', reject);
    });
    expect(first).toBe('HTTP/1.1 400 Bad Request');
    expect((await world.json('/v1/openapi.json', { token: null, origin: null })).status).toBe(200);
  });

  it('webhook paths naming tenants nobody has leave nothing behind: the tenant is asked about before any store is made', async () => {
    const views = () => (world.tenants as unknown as { views: Map<string, unknown> }).views.size;
    const before = views();
    for (let index = 0; index < 50; index += 1) {
      const answer = await fetch(`${world.server.url}/hooks/stranger${index}/sub_abcdefgh12`, {
        method: 'POST',
        body: '{}',
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
    expect(views()).toBe(before);
  });

  it('one organization starting sign-ins without end is held to its own limit; another still signs in', async () => {
    let refused: { status: number; body: { error: { message: string } } } | undefined;
    for (let index = 0; index <= DEFAULT_SIGN_IN_LIMITS.maxPerTenant && !refused; index += 1) {
      // Each request with a token of its own: this world's tokens may make 5 requests an hour.
      const answer = await world.json<{ error: { message: string } }>('/v1/connections', {
        token: world.token('flood'),
        body: { integration: 'ticketing', id: `t${index}` },
      });
      if (answer.status !== 200) refused = answer;
    }
    expect(refused?.status).toBe(400);
    expect(refused?.body.error.message).toMatch(/Too many sign-ins started by this organization/);
    const other = await world.json('/v1/connections', {
      token: world.token('calm'),
      body: { integration: 'ticketing', id: 'desk' },
    });
    expect(other.status).toBe(200);
  });
});
