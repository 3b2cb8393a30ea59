import { constants, promises as fs } from 'node:fs';
import { type FieldIssue, InputError } from '../../errors/index.js';
import { Connection } from '../../model/connection.js';

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** A stored connection file we refuse to read; the message names the file, never its content. */
function unreadable(file: string, reason: string, issues: FieldIssue[] = []): InputError {
  return new InputError(`Connection file ${file} ${reason}; fix or remove it.`, issues, {
    context: { file },
  });
}

/**
 * Reads one connection file. A symbolic link is refused (O_NOFOLLOW): it
 * could make us read, and later overwrite, a file outside the store. What
 * cannot be parsed is refused without its content in the error: a damaged
 * file still holds secrets, and so is a file holding another id than `id`.
 */
export async function readConnectionFile(file: string, id: string): Promise<Connection | undefined> {
  let text: string;
  try {
    const handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (!(await handle.stat()).isFile()) throw unreadable(file, 'is not a regular file');
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    if (errorCode(error) === 'ELOOP')
      throw unreadable(file, 'is a symbolic link, which the store never follows');
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable(file, 'is not valid JSON');
  }
  const parsed = Connection.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.') || '(file)',
      message: 'invalid',
    }));
    throw unreadable(
      file,
      `is not a valid connection (${issues.map((issue) => issue.path).join(', ')})`,
      issues,
    );
  }
  if (parsed.data.id !== id) throw unreadable(file, 'holds a connection with another id');
  return parsed.data;
}
