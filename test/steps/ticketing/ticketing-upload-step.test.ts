import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useFixture } from '../../support/fixture-lifecycle.js';
import { ticketingFixture } from '../../support/ticketing-fixture.js';

/** Every byte value, so a text decoding anywhere on the way would show. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const CAP = 50 * 1024 * 1024;

let root: string;
let allowed: string;
let outside: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-upload-step-'));
  allowed = path.join(root, 'allowed');
  outside = path.join(root, 'outside');
  await mkdir(allowed);
  await mkdir(outside);
  await writeFile(path.join(allowed, 'crash.bin'), BYTES);
  await writeFile(path.join(outside, 'secret.txt'), 'not yours');
  await symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'link-out.txt'));
  await symlink(outside, path.join(allowed, 'dir-out'));
  await writeFile(path.join(allowed, 'huge.bin'), '');
  // Sparse: one byte over the provider's limit without writing 50 MB.
  await truncate(path.join(allowed, 'huge.bin'), CAP + 1);
  execFileSync('mkfifo', [path.join(allowed, 'pipe')]);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('upload_attachment', () => {
  const fx = useFixture(ticketingFixture);
  const uploads = () => fx.requests('ticketing').filter((entry) => entry.path.includes('/uploads'));
  const inAllowed = () => ({ constraints: { upload_dirs: [allowed] } });
  const upload = (input: Record<string, unknown>, extra: object = inAllowed()) =>
    fx.invokeUnchecked(
      'ticketing.upload_attachment',
      { file_name: 'f.bin', content_type: 'application/octet-stream', ...input },
      extra,
    );

  it('uploads a file from an allowed directory byte for byte, adds a second under its token, and a comment takes both', async () => {
    const first = await upload({ file_path: path.join(allowed, 'crash.bin') });
    const token = (first.output as { token: string }).token;
    const second = await upload({
      file_name: 'note.txt',
      content_type: 'text/plain',
      content_base64: 'aGk=',
      token,
    });
    expect(second.output).toMatchObject({
      token,
      attachments: [{ size: 256 }, { file_name: 'note.txt', size: 2 }],
    });
    const [sent] = uploads();
    expect(sent?.path).toBe('/acme/api/v2/uploads.json?filename=f.bin');
    expect(sent?.headers['content-type']).toBe('application/octet-stream');
    const stored = [...fx.sandbox.ticketing.account('acme').files.values()][0];
    expect(stored?.bytes.equals(BYTES)).toBe(true);
    await fx.invoke('ticketing.add_comment', {
      ticket_id: 1,
      body: 'Files.',
      visibility: 'internal',
      upload_tokens: [token],
    });
    const { output } = await fx.invoke('ticketing.list_comments', {
      ticket_id: 1,
      newest_first: true,
      limit: 1,
    });
    expect(output.comments[0]?.attachments.map((file) => file.file_name)).toEqual(['f.bin', 'note.txt']);
  });

  it.each([
    ['no directory allowed at all', () => path.join(allowed, 'crash.bin'), false, /no directory is allowed/],
    [
      'a file outside the allowed directories',
      () => path.join(outside, 'secret.txt'),
      true,
      /outside the directories/,
    ],
    ['a path that climbs out', () => `${allowed}/../outside/secret.txt`, true, /outside the directories/],
    [
      'a link inside that points outside',
      () => path.join(allowed, 'link-out.txt'),
      true,
      /outside the directories/,
    ],
    [
      'a linked directory that leads outside',
      () => path.join(allowed, 'dir-out', 'secret.txt'),
      true,
      /outside the directories/,
    ],
    ['a FIFO (it would block the read)', () => path.join(allowed, 'pipe'), true, /not a regular file/],
    ['a directory', () => allowed, true, /not a regular file/],
    [
      'a file over the provider limit',
      () => path.join(allowed, 'huge.bin'),
      true,
      /larger than 52428800 bytes/,
    ],
    ['a file that does not exist', () => path.join(allowed, 'nope'), true, /cannot be found/],
  ] as const)('refuses %s, sending nothing', async (_name, filePath, allow, reason) => {
    const extra = allow ? inAllowed() : {};
    const error = await upload({ file_path: filePath() }, extra).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: 'input_invalid',
      fields: [{ path: 'file_path', message: expect.stringMatching(reason) }],
    });
    expect((error as Error).message).toContain('Nothing was uploaded');
    expect(uploads()).toEqual([]);
  });

  it('refuses two sources, none, and a file name with a slash, sending nothing', async () => {
    for (const input of [
      { file_path: path.join(allowed, 'crash.bin'), content_base64: 'aGk=' },
      {},
      { file_name: '../x', content_base64: 'aGk=' },
    ]) {
      await expect(upload(input)).rejects.toMatchObject({ code: 'input_invalid' });
    }
    expect(uploads()).toEqual([]);
  });

  it('a constraint other than the upload ones is refused, not ignored', async () => {
    await expect(
      upload({ content_base64: 'aGk=' }, { constraints: { upload_dir: [allowed] } }),
    ).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });
});
