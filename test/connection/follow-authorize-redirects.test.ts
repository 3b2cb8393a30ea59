import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followAuthorizeRedirects } from '../../src/connection/loopback-authorization.js';
import { AuthError, TimeoutError } from '../../src/errors/index.js';

/** A sign-in page on a real loopback socket, answering as `answer` says. */
async function signInPage(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = http.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.map((page) => page.close()));
  opened = [];
});
async function open(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const page = await signInPage(answer);
  opened.push(page);
  return page;
}

const AUTHORIZE_QUERY = '?response_type=code&state=st-0123456789abcdef&code_challenge=cc-secretish';

/** The sign-in walk from `page`'s authorize URL with its query, within `timeoutMs`: what it settles with, error or not. */
function walkFrom(page: { origin: string }, timeoutMs: number): Promise<unknown> {
  return followAuthorizeRedirects(`${page.origin}/oauth/authorize${AUTHORIZE_QUERY}`, fetch, timeoutMs).catch(
    (caught: unknown) => caught,
  );
}

describe('followAuthorizeRedirects: the sandbox sign-in walk has one deadline', () => {
  it('a sign-in page that never answers fails with a TimeoutError naming it, without its query', async () => {
    const page = await open(() => {
      // Takes the request and never answers: no status line, no headers.
    });
    const error = await walkFrom(page, 200);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      code: 'timeout',
      retryable: false,
      context: { method: 'GET', path: '/oauth/authorize' },
    });
    expect((error as Error).message).toContain(`GET ${page.origin}/oauth/authorize (the sign-in page)`);
    expect((error as Error).message).toContain('200 ms');
    expect((error as Error).message).not.toContain('st-0123456789abcdef');
    expect((error as Error).message).not.toContain('code_challenge');
  });

  it('the deadline covers the whole walk: a later hop that hangs is the one named', async () => {
    const page = await open((request, response) => {
      if (request.url?.startsWith('/oauth/authorize')) {
        response.writeHead(302, { location: '/callback?code=c-0123456789&state=st' }).end();
      }
      // /callback never answers.
    });
    const error = await walkFrom(page, 300);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain(`GET ${page.origin}/callback (the sign-in page)`);
    expect((error as Error).message).not.toContain('c-0123456789');
  });

  it('cancels each answer it does not read: a body that never ends does not hold the walk or its socket', async () => {
    let firstClosed!: Promise<void>;
    const page = await open((request, response) => {
      if (request.url?.startsWith('/oauth/authorize')) {
        firstClosed = new Promise((resolve) => response.once('close', () => resolve()));
        // Headers, then a body that is never finished.
        response.writeHead(302, { location: '/callback?code=c1&state=st', 'content-type': 'text/html' });
        response.write('<p>Redirecting');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<p>Connected');
    });
    await followAuthorizeRedirects(`${page.origin}/oauth/authorize${AUTHORIZE_QUERY}`, fetch, 30_000);
    // Resolves only once the client gave the unfinished answer up.
    await firstClosed;
  });

  it('a sign-in page that refuses is an AuthError with its status', async () => {
    const page = await open((_request, response) => {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('no');
    });
    await expect(followAuthorizeRedirects(`${page.origin}/oauth/authorize`, fetch, 30_000)).rejects.toThrow(
      AuthError,
    );
  });

  it('a page that keeps redirecting is an AuthError, not a silent return that leaves connect waiting for a callback', async () => {
    let hops = 0;
    const page = await open((_request, response) => {
      hops += 1;
      response.writeHead(302, { location: `/oauth/authorize?again=${hops}` }).end();
    });
    const error = await followAuthorizeRedirects(`${page.origin}/oauth/authorize`, fetch, 30_000).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/redirected more than 5 times/);
    expect(hops).toBe(5);
  });
});
