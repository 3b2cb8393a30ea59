import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleUi } from '../../../scripts/bundle-ui.mjs';

/**
 * An embedder's site, as docs/embedding.md describes one: its own origin
 * (another loopback address than the builder API's 127.0.0.1, so another
 * origin), serving the docs' examples unchanged (embed.html with the kit's
 * bundle beside it, and the React example bundled by esbuild), and a
 * backend route that hands the page a builder session: the API's address
 * and a short-lived token minted for the tenant.
 */
export interface EmbedderSite {
  origin: string;
  /** From now on, POST /builder-session answers with a token of this builder, living `lifeSeconds` (900). */
  serve(
    builder: { origin: string; mintToken(tenant: string, ttlMs?: number): string },
    lifeSeconds?: number,
  ): void;
  /** How many sessions the pages have asked for (a page renews its token with a new one). */
  sessionsMinted(): number;
  stop(): Promise<void>;
}

let nextHost = 2;

/** The kit, the HTML example and the React example, built once per test file. */
async function siteFiles(): Promise<Map<string, { type: string; body: string | Buffer }>> {
  const outdir = path.join(os.tmpdir(), `toolsteps-embedder-${process.pid}`);
  const kit = await bundleUi({ outdir });
  const react = await build({
    stdin: {
      contents: `import { mount } from './react-builder.tsx';
        const renew = () => fetch('/builder-session', { method: 'POST' }).then((answer) => answer.json());
        mount(document.getElementById('root'), await renew(), renew);`,
      resolveDir: path.resolve('docs/examples'),
      loader: 'tsx',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { 'toolsteps/ui': path.resolve('ui/index.ts') },
    logLevel: 'error',
  });
  const js = 'text/javascript; charset=utf-8';
  return new Map([
    ['/embed.html', { type: 'text/html; charset=utf-8', body: readFileSync('docs/examples/embed.html') }],
    ['/toolsteps-ui.js', { type: js, body: readFileSync(kit) }],
    [
      '/react.html',
      {
        type: 'text/html; charset=utf-8',
        body: '<!doctype html><html lang="en"><title>React builder</title><main id="root"></main><script type="module" src="/react.js"></script></html>',
      },
    ],
    ['/react.js', { type: js, body: Buffer.from(react.outputFiles[0]!.contents) }],
  ]);
}

/**
 * `sameSite`: on the API's own host (127.0.0.1, another port: another origin
 * but the same site), as a page that starts redirect sign-ins must be
 * (docs/embedding.md, "The sign-in cookie, and your sites"); otherwise on a
 * loopback address of its own, another site.
 */
export async function startEmbedderSite(options: { sameSite?: boolean } = {}): Promise<EmbedderSite> {
  const files = await siteFiles();
  let session: ((tenant: string) => { apiBase: string; token: string; expiresIn: number }) | undefined;
  let minted = 0;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (request.method === 'POST' && url.pathname === '/builder-session' && session) {
      minted += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(session('default')));
      return;
    }
    const file = files.get(url.pathname);
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    response.end(file.body);
  });
  const host = options.sameSite ? '127.0.0.1' : `127.0.0.${nextHost++}`;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    serve: (builder, lifeSeconds = 900) => {
      session = (tenant) => ({
        apiBase: builder.origin,
        token: builder.mintToken(tenant, lifeSeconds * 1000),
        expiresIn: lifeSeconds,
      });
    },
    sessionsMinted: () => minted,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
