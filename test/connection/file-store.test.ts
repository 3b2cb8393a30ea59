import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/connection/connection.js';
import { defaultToolstepsHome, FileConnectionStore } from '../../src/connection/file-store.js';
import { transpileForChild } from '../support/transpile-for-child.js';

const run = promisify(execFile);

function connection(id: string, token: string): Connection {
  return {
    id,
    integration: 'ticketing',
    kind: 'oauth2',
    fields: { subdomain: 'acme' },
    secrets: { accessToken: token },
    createdAt: 1,
    updatedAt: 1,
  };
}

describe('file connection store', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-store-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('lives under $TOOLSTEPS_HOME, else ~/.toolsteps', () => {
    expect(defaultToolstepsHome({ TOOLSTEPS_HOME: '/x/y' })).toBe('/x/y');
    expect(defaultToolstepsHome({})).toBe(path.join(os.homedir(), '.toolsteps'));
  });

  it('writes files readable by the owner only, in a private folder', async () => {
    const store = new FileConnectionStore(home);
    await store.put(connection('one', 'token-one'));
    const file = await stat(path.join(home, 'connections', 'one.json'));
    const folder = await stat(path.join(home, 'connections'));
    expect(file.mode & 0o777).toBe(0o600);
    expect(folder.mode & 0o777).toBe(0o700);
    expect(await store.get('one')).toMatchObject({ id: 'one', secrets: { accessToken: 'token-one' } });
    expect((await store.list()).map((item) => item.id)).toEqual(['one']);
    expect(await store.remove('one')).toBe(true);
    expect(await store.get('one')).toBeUndefined();
  });

  it('refuses ids that could escape the folder', async () => {
    const store = new FileConnectionStore(home);
    await expect(store.get('../etc/passwd')).rejects.toMatchObject({ code: 'input_invalid' });
  });

  it('update is atomic per id within a process', async () => {
    const store = new FileConnectionStore(home);
    await store.put({ ...connection('counter', 't'), fields: { subdomain: 'acme', n: '0' } });
    await Promise.all(
      Array.from({ length: 40 }, () =>
        store.update('counter', (current) => ({
          ...current,
          fields: { ...current.fields, n: String(Number(current.fields.n) + 1) },
        })),
      ),
    );
    expect((await store.get('counter'))?.fields.n).toBe('40');
  });

  it('survives concurrent writers in separate processes and never exposes a half-written file', async () => {
    const root = await transpileForChild([
      'src/connection/file-store.ts',
      'src/connection/connection.ts',
      'src/connection/keyed-mutex.ts',
      'src/errors.ts',
    ]);
    const writer = `
      import { FileConnectionStore } from ${JSON.stringify(path.join(root, 'src/connection/file-store.js'))};
      const [home, id] = process.argv.slice(2);
      const store = new FileConnectionStore(home);
      for (let i = 0; i < 30; i++) {
        await store.put({ id: 'shared', integration: 'ticketing', kind: 'oauth2', fields: { subdomain: 'acme', writer: id, i: String(i) },
          secrets: { accessToken: 'x'.repeat(20000) + id }, createdAt: 1, updatedAt: i });
        await store.put({ id: 'own-' + id, integration: 'ticketing', kind: 'oauth2', fields: { subdomain: 'acme' },
          secrets: { accessToken: 't' + i }, createdAt: 1, updatedAt: i });
      }
    `;
    const script = path.join(root, `writer-${process.pid}.mjs`);
    await writeFile(script, writer);
    const store = new FileConnectionStore(home);
    let reads = 0;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const found = await store.get('shared'); // a torn file would throw here
        if (found) reads += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => run(process.execPath, [script, home, id])));
    reading = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect((await store.get('shared'))?.fields.i).toBe('29');
    expect((await store.list()).map((item) => item.id).sort()).toEqual([
      'own-a',
      'own-b',
      'own-c',
      'own-d',
      'shared',
    ]);
    const leftovers = (await readdir(path.join(home, 'connections'))).filter(
      (name) => !name.endsWith('.json'),
    );
    expect(leftovers).toEqual([]);
    JSON.parse(await readFile(path.join(home, 'connections', 'shared.json'), 'utf8'));
  }, 60_000);
});
