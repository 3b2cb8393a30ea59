import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../../src/kit/index.js';

/**
 * The provider's attachment limit: "Attachments are limited to 50 MB" per
 * file (the Upload Files guide). The whole file is held in memory to send,
 * so the cap is also what one upload may cost us.
 */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/** The constraint naming the directories an upload may read files from. */
export const UPLOAD_DIRS = 'upload_dirs';
/** The constraint naming the origins an upload may fetch files from. */
export const UPLOAD_ORIGINS = 'upload_origins';

export function refuseSource(field: string, reason: string): InputError {
  return new InputError(`Refused ${field}: ${reason}. Nothing was uploaded.`, [
    { path: field, message: reason },
  ]);
}

/**
 * Whether a URL (the one given, or a hop a redirect points to) is on one of
 * the origins the caller allowed (`constraints.upload_origins`, e.g.
 * `https://files.example.com`): scheme, host and port all match.
 */
export function allowedOrigin(origins: readonly string[]): (url: URL) => boolean {
  const allowed = new Set(
    origins.flatMap((origin) => {
      try {
        return [new URL(origin).origin];
      } catch {
        return [];
      }
    }),
  );
  return (url) => allowed.has(url.origin);
}

function within(child: string, root: string): boolean {
  return child === root || child.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

/** The allowed directories as they really are (links resolved); ones that do not exist allow nothing. */
async function realRoots(dirs: readonly string[]): Promise<string[]> {
  const roots = await Promise.all(dirs.map((dir) => realpath(path.resolve(dir)).catch(() => undefined)));
  return roots.filter((root): root is string => root !== undefined);
}

/**
 * The bytes of a local file the caller allowed: its real path (every link
 * followed) must lie inside one of `dirs` (the embedder's
 * `constraints.upload_dirs`), it is opened without following a link and
 * without blocking (a FIFO cannot hang the step), it must be a regular file,
 * the file actually opened must still lie inside (a directory swapped for a
 * link between the check and the open is caught through /proc), and no more
 * than `cap` bytes are ever read.
 */
export async function readAllowedFile(file: string, dirs: readonly string[], cap: number): Promise<Buffer> {
  const field = 'file_path';
  if (!dirs.length) {
    throw refuseSource(field, `no directory is allowed: the caller sets constraints.${UPLOAD_DIRS}`);
  }
  const roots = await realRoots(dirs);
  const real = await realpath(path.resolve(file)).catch(() => undefined);
  if (real === undefined) throw refuseSource(field, 'the file cannot be found or read');
  const inside = (candidate: string) => roots.some((root) => within(candidate, root));
  if (!inside(real))
    throw refuseSource(field, `it lies outside the directories in constraints.${UPLOAD_DIRS}`);
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => undefined,
  );
  if (!handle) throw refuseSource(field, 'the file cannot be opened (a link, or unreadable)');
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuseSource(field, 'it is not a regular file');
    const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => real);
    if (!inside(opened)) throw refuseSource(field, 'the file opened lies outside the allowed directories');
    if (info.size > cap) throw refuseSource(field, `it is larger than ${cap} bytes, the provider's limit`);
    return await readAtMost(handle, cap, field);
  } finally {
    await handle.close();
  }
}

/** Reads to the end, never more than `cap` bytes: a file that grows past the cap while read is refused. */
async function readAtMost(
  handle: Awaited<ReturnType<typeof open>>,
  cap: number,
  field: string,
): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.min(cap + 1, 1024 * 1024));
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, cap + 1 - total), null);
    if (bytesRead === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
    total += bytesRead;
    if (total > cap) throw refuseSource(field, `it is larger than ${cap} bytes, the provider's limit`);
  }
  return Buffer.concat(chunks, total);
}
