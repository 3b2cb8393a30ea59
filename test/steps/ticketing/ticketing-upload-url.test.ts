import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/** Every byte value, served as text/plain: a decoding anywhere on the way would show. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const CAP = 50 * 1024 * 1024;

interface FileServer {
  server: Server;
  origin: string;
  seen: { path: string; headers: IncomingHttpHeaders }[];
}

interface FileAnswer {
  status: number;
  headers?: Record<string, string | number>;
  body?: Buffer;
}

/** A file host on loopback; `routes` answers by path. */
async function fileServer(routes: (path: string, origin: string) => FileAnswer): Promise<FileServer> {
  const seen: FileServer['seen'] = [];
  let origin = '';
  const server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    const answer = routes(request.url ?? '', origin);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, seen };
}

let files: FileServer;
let elsewhere: FileServer;
beforeAll(async () => {
  elsewhere = await fileServer(() => ({
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: Buffer.from('internal'),
  }));
  files = await fileServer((path, origin): FileAnswer => {
    if (path === '/crash.bin') return { status: 200, headers: { 'content-type': 'text/plain' }, body: BYTES };
    if (path === '/moved') return { status: 302, headers: { location: `${origin}/crash.bin` } };
    if (path === '/away') return { status: 302, headers: { location: `${elsewhere.origin}/secret` } };
    if (path === '/huge')
      return { status: 200, headers: { 'content-length': CAP + 1 }, body: Buffer.alloc(0) };
    return { status: 404, body: Buffer.from('no') };
  });
});
afterAll(async () => {
  for (const host of [files, elsewhere]) await new Promise((resolve) => host.server.close(resolve));
});

describe('upload_attachment from a URL', () => {
  const fx = useFixture(ticketingFixture);
  const uploads = () => fx.requests('ticketing').filter((entry) => entry.path.includes('/uploads'));
  const allowFiles = () => ({ constraints: { upload_origins: [files.origin] } });
  const upload = (url: string, extra: object = allowFiles()) =>
    fx.invokeUnchecked(
      'ticketing.upload_attachment',
      { file_name: 'crash.bin', content_type: 'application/octet-stream', url },
      extra,
    );

  it('fetches from an allowed origin, byte for byte and with none of the connection, following a redirect that stays there', async () => {
    const { output } = await upload(`${files.origin}/moved`);
    expect(output).toMatchObject({ attachment: { file_name: 'crash.bin', size: 256 } });
    const stored = [...fx.sandbox.ticketing.account('acme').files.values()][0];
    expect(stored?.bytes.equals(BYTES)).toBe(true);
    expect(files.seen.slice(-2).map((hit) => hit.path)).toEqual(['/moved', '/crash.bin']);
    for (const hit of files.seen) expect(hit.headers.authorization).toBeUndefined();
  });

  it('does not follow a redirect to an origin the caller did not allow, and uploads nothing', async () => {
    const before = elsewhere.seen.length;
    await expect(upload(`${files.origin}/away`)).rejects.toMatchObject({
      code: 'provider_error',
      message: expect.stringContaining('not an allowed origin'),
    });
    expect(elsewhere.seen.length).toBe(before);
    expect(uploads()).toEqual([]);
  });

  it.each([
    ['no origin allowed at all', () => `${files.origin}/crash.bin`, {}, /no origin is allowed/],
    ['an origin not allowed', () => `${elsewhere.origin}/secret`, undefined, /not an allowed origin/],
    [
      'the same host on another port',
      () => `${files.origin.replace(/:\d+$/, ':1')}/x`,
      undefined,
      /not an allowed origin/,
    ],
    ['a file: URL', () => 'file:///etc/passwd', undefined, /only http and https/],
    [
      'a user name in the URL',
      () => `${files.origin.replace('//', '//me:pw@')}/crash.bin`,
      undefined,
      /user name or password/,
    ],
    ['a relative URL', () => '/crash.bin', undefined, /not an absolute URL/],
  ])('refuses %s before anything is sent', async (_name, url, extra, reason) => {
    const hits = files.seen.length + elsewhere.seen.length;
    const error = await upload(url(), extra ?? allowFiles()).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'url', message: expect.stringMatching(reason) }],
    });
    expect(files.seen.length + elsewhere.seen.length).toBe(hits);
    expect(uploads()).toEqual([]);
  });

  it('refuses a file that says it is over the provider limit without reading it, and a 404, uploading nothing', async () => {
    await expect(upload(`${files.origin}/huge`)).rejects.toMatchObject({ code: 'response_too_large' });
    await expect(upload(`${files.origin}/missing`)).rejects.toMatchObject({ status: 404 });
    expect(uploads()).toEqual([]);
  });
});
