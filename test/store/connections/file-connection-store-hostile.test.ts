import { chmod, chown, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileConnectionStore } from '../../../src/store/files/file-connection-store.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { useTempDir } from '../../support/temp-dir.js';

const LEAK = 'sk-live-should-never-print-0123456789';

const connection = acmeConnection;

describe('file store against damaged or planted files', () => {
  const home = useTempDir('toolsteps-hostile-store-');
  let directory: string;
  let warnings: string[];
  let store: FileConnectionStore;
  beforeEach(async () => {
    directory = path.join(home(), 'connections');
    warnings = [];
    store = new FileConnectionStore(home(), { warn: (message: string) => warnings.push(message) });
    await store.put(connection('good'));
  });

  it('a corrupt, an invalid and a symlinked file are skipped by list, with a warning naming each file but not its content', async () => {
    await writeFile(path.join(directory, 'corrupt.json'), `{"secrets": {"accessToken": "${LEAK}"`, {
      mode: 0o600,
    });
    await writeFile(path.join(directory, 'invalid.json'), JSON.stringify({ id: 'invalid', kind: LEAK }), {
      mode: 0o600,
    });
    const outside = path.join(home(), 'elsewhere.json');
    await writeFile(outside, JSON.stringify({ ...connection('planted'), label: LEAK }));
    await symlink(outside, path.join(directory, 'planted.json'));

    const listed = await store.list();
    expect(listed.map((item) => item.id)).toEqual(['good']);
    expect(warnings).toHaveLength(3);
    for (const name of ['corrupt.json', 'invalid.json', 'planted.json']) {
      expect(warnings.some((warning) => warning.includes(name))).toBe(true);
    }
    expect(warnings.join('\n')).not.toContain(LEAK);
  });

  it('reading a corrupt or symlinked connection fails without its content in the error', async () => {
    await writeFile(path.join(directory, 'corrupt.json'), `not json ${LEAK}`, { mode: 0o600 });
    const corrupt = await store.get('corrupt').catch((caught: unknown) => caught);
    expect(corrupt).toMatchObject({ code: 'input_invalid' });
    expect(JSON.stringify(corrupt) + String(corrupt)).not.toContain(LEAK);

    await writeFile(path.join(home(), 'target.json'), JSON.stringify({ ...connection('link'), label: LEAK }));
    await symlink(path.join(home(), 'target.json'), path.join(directory, 'link.json'));
    const linked = await store.get('link').catch((caught: unknown) => caught);
    expect(linked).toMatchObject({ code: 'input_invalid' });
    expect((linked as Error).message).toMatch(/link\.json.*symbolic link/);
    expect(JSON.stringify(linked) + String(linked)).not.toContain(LEAK);
  });

  it('a store directory readable by others is tightened to 0700 when it is ours', async () => {
    await chmod(directory, 0o755);
    await store.list();
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    await chmod(directory, 0o777);
    await new FileConnectionStore(home()).put(connection('second'));
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a loose store directory owned by someone else is refused',
    async () => {
      const foreign = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-foreign-store-'));
      try {
        await mkdir(path.join(foreign, 'connections'), { mode: 0o777 });
        await chmod(path.join(foreign, 'connections'), 0o777);
        await chown(path.join(foreign, 'connections'), 4242, 4242);
        const error = await new FileConnectionStore(foreign).list().catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: 'permission_denied' });
        expect((error as Error).message).toMatch(/connections.*others/);
      } finally {
        await rm(foreign, { recursive: true, force: true });
      }
    },
  );
});
