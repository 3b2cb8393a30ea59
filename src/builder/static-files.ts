import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Serves a file of `root` for a GET path (`/` is index.html), or answers 404:
 * for a path outside the folder (after decoding and resolving links), a
 * dot-file, a folder, or a root that does not exist. Whatever the folder
 * holds is served as is; nothing is listed.
 */
export async function serveStaticFile(
  root: string,
  pathname: string,
  response: ServerResponse,
): Promise<void> {
  const file = await resolveInside(root, pathname);
  if (!file) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
    return;
  }
  response.writeHead(200, {
    'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    'referrer-policy': 'no-referrer',
  });
  // A file removed or made unreadable after the lookup: the answer is cut short, and the process goes on.
  createReadStream(file)
    .once('error', () => response.destroy())
    .pipe(response);
}

async function resolveInside(root: string, pathname: string): Promise<string | undefined> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  } catch {
    return undefined;
  }
  if (relative.includes('\0') || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
  try {
    const base = await realpath(root);
    const file = await realpath(path.join(base, relative));
    if (!file.startsWith(`${base}${path.sep}`)) return undefined;
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}
