import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../../errors/index.js';

/** A token is a line, not a document: anything longer is not the file we meant. */
const MAX_TOKEN_FILE_BYTES = 4096;

function refused(file: string, message: string): InputError {
  return new InputError(`The token file ${file} ${message}`, [{ path: 'token-file', message }]);
}

/**
 * Reads the bearer token from a file that only its owner can reach. Refused,
 * with nothing read, when the file belongs to another user (who could choose
 * the token) or when group or others have any access to it (who could read
 * it), or when it is not a regular file. Opened without blocking, so a FIFO
 * planted at the path cannot hang the server. Undefined when the file does
 * not exist and `missingOk` allows it. Ownership and mode are checked where
 * the system has them (not on Windows).
 */
export async function readTokenFile(file: string): Promise<string>;
export async function readTokenFile(file: string, options: { missingOk: true }): Promise<string | undefined>;
export async function readTokenFile(file: string, options: { missingOk?: boolean } = {}) {
  const handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.missingOk) return undefined;
    throw refused(file, `cannot be opened (${code ?? 'error'}).`);
  });
  if (!handle) return undefined;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refused(file, 'is not a regular file.');
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw refused(file, `belongs to another user (uid ${stat.uid}), who could choose the token.`);
    }
    if (uid !== undefined && (stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      throw refused(file, `is open to others (mode ${mode}): make it yours alone with chmod 600.`);
    }
    if (stat.size > MAX_TOKEN_FILE_BYTES) throw refused(file, `is over ${MAX_TOKEN_FILE_BYTES} bytes.`);
    const token = (await handle.readFile('utf8')).trim();
    if (!token) throw refused(file, 'is empty.');
    return token;
  } finally {
    await handle.close();
  }
}

/**
 * The token in `file`, made first when there is none: 32 random bytes,
 * written to a file of mode 0600 and linked into place, so a reader never
 * sees half a token and two servers starting at once end up with one. A
 * file already there is read with every check of `readTokenFile`, and kept:
 * clients set up with it go on working across restarts.
 */
export async function ensureTokenFile(file: string): Promise<{ token: string; created: boolean }> {
  const existing = await readTokenFile(file, { missingOk: true });
  if (existing !== undefined) return { token: existing, created: false };
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temporary, `${token}\n`, { flag: 'wx', mode: 0o600 });
    await fs.link(temporary, file);
    return { token, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { token: await readTokenFile(file), created: false };
  } finally {
    await fs.rm(temporary, { force: true });
  }
}
