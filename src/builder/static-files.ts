import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

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

/** What the page folder answers a path: its status, headers, and the file's bytes or a short text. */
export interface StaticAnswer {
  status: 200 | 404;
  headers: Record<string, string>;
  body: Readable | string;
}

/**
 * A file of `root` for a GET path (`/` is index.html), or 404: for a path
 * outside the folder (after decoding and resolving links), a dot-file, a
 * folder, or a root that does not exist. Whatever the folder holds is
 * served as is; nothing is listed. A file removed or made unreadable after
 * the lookup cuts the answer short, and the process goes on.
 */
export async function serveStaticFile(root: string, pathname: string): Promise<StaticAnswer> {
  const file = await resolveInside(root, pathname);
  if (!file) {
    return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found.' };
  }
  return {
    status: 200,
    headers: {
      'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
      'referrer-policy': 'no-referrer',
    },
    body: createReadStream(file),
  };
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
