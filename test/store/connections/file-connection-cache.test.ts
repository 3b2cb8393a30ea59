import { execFile } from 'node:child_process';
import { readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors/index.js';
import { SETTLE_MS } from '../../../src/store/files/connection-file-cache.js';
import { FileConnectionStore } from '../../../src/store/files/file-connection-store.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { useTempDir } from '../../support/temp-dir.js';
import { transpileForChild } from '../../support/transpile-for-child.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A reader whose clock runs ahead, so every file it reads counts as settled and is kept between calls. */
const settledReader = (home: string) =>
  new FileConnectionStore(home, { clock: { now: () => Date.now() + 10 * SETTLE_MS } });

/** Another process refreshing the connection's token through its own file store, as a worker or the CLI does. */
async function refreshInAnotherProcess(home: string, id: string, accessToken: string): Promise<void> {
  const root = await transpileForChild(
    ['src/store/files/file-connection-store.ts'],
    'toolsteps-child-file-cache',
  );
  const script = path.join(root, `refresher-${process.pid}.mjs`);
  await writeFile(
    script,
    `import { FileConnectionStore } from ${JSON.stringify(path.join(root, 'src/store/files/file-connection-store.js'))};
    const [home, id, accessToken] = process.argv.slice(2);
    await new FileConnectionStore(home).update(id, (current) => ({ ...current, secrets: { accessToken }, updatedAt: 2 }));`,
  );
  await run(process.execPath, [script, home, id, accessToken]);
}

describe('file connection store: what get keeps between calls', () => {
  const home = useTempDir('toolsteps-cache-');

  it("sees another process's refresh on the next call, a token of the same length included", async () => {
    await new FileConnectionStore(home()).put(acmeConnection('main', 'token-aaaa'));
    const reader = settledReader(home());
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-aaaa');
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-aaaa');
    await refreshInAnotherProcess(home(), 'main', 'token-bbbb');
    expect(await reader.get('main')).toMatchObject({ secrets: { accessToken: 'token-bbbb' }, updatedAt: 2 });
  }, 60_000);

  it('sees a connection added again under the same id by another store (connections add)', async () => {
    const reader = settledReader(home());
    await new FileConnectionStore(home()).put(acmeConnection('main', 'first'));
    expect((await reader.get('main'))?.secrets.accessToken).toBe('first');
    await new FileConnectionStore(home()).put({ ...acmeConnection('main', 'again'), label: 'Support' });
    expect(await reader.get('main')).toMatchObject({ label: 'Support', secrets: { accessToken: 'again' } });
  });

  it('sees a file rewritten in place by hand with the same size, on the real clock', async () => {
    const reader = new FileConnectionStore(home());
    await reader.put(acmeConnection('main', 'token-aaaa'));
    const file = path.join(home(), 'connections', 'main.json');
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-aaaa');
    // Same inode, same size, and quite likely the same timestamp tick: only a file that has not settled yet is safe from that.
    await writeFile(file, (await readFile(file, 'utf8')).replace('token-aaaa', 'token-cccc'));
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-cccc');
  });

  it('sees a settled file rewritten in place in a later tick', async () => {
    await new FileConnectionStore(home()).put(acmeConnection('main', 'token-aaaa'));
    const reader = settledReader(home());
    const file = path.join(home(), 'connections', 'main.json');
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-aaaa');
    await sleep(50);
    await writeFile(file, (await readFile(file, 'utf8')).replace('token-aaaa', 'token-dddd'));
    expect((await reader.get('main'))?.secrets.accessToken).toBe('token-dddd');
  });

  it('answers nothing once the file is gone, and refuses a link planted in its place', async () => {
    await new FileConnectionStore(home()).put(acmeConnection('main'));
    const reader = settledReader(home());
    const file = path.join(home(), 'connections', 'main.json');
    expect(await reader.get('main')).toBeDefined();
    await unlink(file);
    expect(await reader.get('main')).toBeUndefined();
    await new FileConnectionStore(home()).put(acmeConnection('main'));
    expect(await reader.get('main')).toBeDefined();
    const elsewhere = path.join(home(), 'elsewhere.json');
    await writeFile(elsewhere, await readFile(file, 'utf8'));
    await unlink(file);
    await symlink(elsewhere, file);
    await expect(reader.get('main')).rejects.toBeInstanceOf(InputError);
  });

  it('hands out copies: a caller that edits what it got does not change the next answer', async () => {
    await new FileConnectionStore(home()).put(acmeConnection('main', 'kept'));
    const reader = settledReader(home());
    const first = await reader.get('main');
    const second = await reader.get('main');
    if (!first || !second) throw new Error('expected the connection');
    first.secrets.accessToken = 'edited';
    second.secrets.accessToken = 'edited too';
    expect((await reader.get('main'))?.secrets.accessToken).toBe('kept');
  });
});
