import { executionAsyncId } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../src/errors/index.js';
import { defaultToolstepsHome, FileConnectionStore } from '../../../src/store/files/file-connection-store.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { useTempDir } from '../../support/temp-dir.js';
import { transpileForChild } from '../../support/transpile-for-child.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes a lock file as another process would leave it, `ageMs` old. */
async function foreignLock(home: string, id: string, ageMs: number): Promise<string> {
  const lock = path.join(home, 'connections', `${id}.json.lock`);
  await mkdir(path.dirname(lock), { recursive: true });
  await writeFile(lock, 'another-process');
  const then = new Date(Date.now() - ageMs);
  await utimes(lock, then, then);
  return lock;
}

/** What a child process needs to run the file store. */
const STORE_SOURCES = [
  'src/store/files/file-connection-store.ts',
  'src/model/connection.ts',
  'src/values/keyed-mutex.ts',
  'src/errors/index.ts',
];

const connection = acmeConnection;

describe('file connection store', () => {
  const home = useTempDir('toolsteps-store-');

  it('lives under $TOOLSTEPS_HOME, else ~/.toolsteps', () => {
    expect(defaultToolstepsHome({ TOOLSTEPS_HOME: '/x/y' })).toBe('/x/y');
    expect(defaultToolstepsHome({})).toBe(path.join(os.homedir(), '.toolsteps'));
  });

  it('writes files readable by the owner only, in a private folder', async () => {
    const store = new FileConnectionStore(home());
    await store.put(connection('one', 'token-one'));
    const file = await stat(path.join(home(), 'connections', 'one.json'));
    const folder = await stat(path.join(home(), 'connections'));
    expect(file.mode & 0o777).toBe(0o600);
    expect(folder.mode & 0o777).toBe(0o700);
    expect(await store.get('one')).toMatchObject({ id: 'one', secrets: { accessToken: 'token-one' } });
    expect((await store.list()).map((item) => item.id)).toEqual(['one']);
    expect(await store.remove('one')).toBe(true);
    expect(await store.get('one')).toBeUndefined();
  });

  it('refuses ids that could escape the folder', async () => {
    const store = new FileConnectionStore(home());
    await expect(store.get('../etc/passwd')).rejects.toMatchObject({ code: 'input_invalid' });
  });

  it('update is atomic per id within a process', async () => {
    const store = new FileConnectionStore(home());
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
    const root = await transpileForChild(STORE_SOURCES);
    const writer = `
      import { FileConnectionStore } from ${JSON.stringify(path.join(root, 'src/store/files/file-connection-store.js'))};
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
    const store = new FileConnectionStore(home());
    let reads = 0;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const found = await store.get('shared'); // a torn file would throw here
        if (found) reads += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => run(process.execPath, [script, home(), id])));
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
    const leftovers = (await readdir(path.join(home(), 'connections'))).filter(
      (name) => !name.endsWith('.json'),
    );
    expect(leftovers).toEqual([]);
    JSON.parse(await readFile(path.join(home(), 'connections', 'shared.json'), 'utf8'));
  }, 60_000);

  it('a lock left by a crashed process goes stale after 5 s, well before the 10 s give-up', async () => {
    const store = new FileConnectionStore(home());
    await store.put(connection('crashed', 'old'));
    await foreignLock(home(), 'crashed', 6_000);
    const started = Date.now();
    const next = await store.update('crashed', (current) => ({
      ...current,
      secrets: { accessToken: 'new' },
    }));
    expect(next.secrets.accessToken).toBe('new');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await readdir(path.join(home(), 'connections'))).toEqual(['crashed.json']);
  });

  it('giving up on a live lock is a retryable TimeoutError naming the connection', async () => {
    const store = new FileConnectionStore(home(), { lockTimeoutMs: 150 });
    await store.put(connection('busy', 'old'));
    await foreignLock(home(), 'busy', 0);
    const failure = await store.update('busy', (current) => current).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toMatchObject({ code: 'timeout', retryable: true, context: { connection: 'busy' } });
    expect((failure as Error).message).toContain('"busy"');
    expect((await store.get('busy'))?.secrets.accessToken).toBe('old');
  });

  it('withConnectionLock: the store works inside it on the same id; the lock is held throughout', async () => {
    const store = new FileConnectionStore(home());
    await store.put(connection('inside', 'one'));
    const lock = path.join(home(), 'connections', 'inside.json.lock');
    const result = await store.withConnectionLock('inside', async () => {
      await stat(lock);
      const current = await store.get('inside');
      await store.put({ ...current!, secrets: { accessToken: 'two' } });
      await store.update('inside', (c) => ({ ...c, fields: { ...c.fields, n: '1' } }));
      return store.withConnectionLock('inside', async () => 'nested');
    });
    expect(result).toBe('nested');
    expect(await store.get('inside')).toMatchObject({ secrets: { accessToken: 'two' }, fields: { n: '1' } });
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.withConnectionLock('../x', async () => 1)).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });

  it('a task started under the lock that outlives it takes the lock afresh', async () => {
    const store = new FileConnectionStore(home());
    await store.put(connection('later', 't'));
    const lock = path.join(home(), 'connections', 'later.json.lock');
    let later!: Promise<unknown>;
    await store.withConnectionLock('later', async () => {
      later = sleep(30).then(() => store.withConnectionLock('later', () => stat(lock)));
    });
    await expect(later).resolves.toBeDefined(); // its own lock file, not the finished hold
  });

  it('a finished hold leaves no promise hook on, which would tax every later promise of the process', async () => {
    // Without a hook, a promise's continuation runs with no async id of its own (0).
    const asyncIdAfterAwait = async () => {
      await null;
      return executionAsyncId();
    };
    expect(await asyncIdAfterAwait()).toBe(0);
    const store = new FileConnectionStore(home());
    await store.put(connection('hooked', 'one'));
    let insideId = 0;
    await store.withConnectionLock('hooked', async () => {
      insideId = await asyncIdAfterAwait();
      await store.put(connection('hooked', 'two'));
    });
    expect(insideId).not.toBe(0); // the hold itself is tracked while it runs
    expect(await asyncIdAfterAwait()).toBe(0);
    expect((await store.get('hooked'))?.secrets.accessToken).toBe('two');
  });

  it('a holder keeps its lock fresh however long its work takes, so no one breaks it as stale', async () => {
    const options = { lockStaleMs: 200, lockTimeoutMs: 5_000 };
    const holder = new FileConnectionStore(home(), options);
    const other = new FileConnectionStore(home(), options); // as another process would: its own mutex
    await holder.put(connection('slow', 'old'));
    const events: string[] = [];
    const holding = holder.withConnectionLock('slow', async () => {
      events.push('holder in');
      await sleep(800); // four stale windows, like a token request waiting on the network
      await holder.put(connection('slow', 'from-holder'));
      events.push('holder out');
    });
    await sleep(50);
    const waiting = other
      .update('slow', (current) => {
        events.push('other in');
        return { ...current, fields: { ...current.fields, seen: current.secrets.accessToken ?? '' } };
      })
      .then(() => events.push('other out'));
    await Promise.all([holding, waiting]);
    expect(events).toEqual(['holder in', 'holder out', 'other in', 'other out']);
    expect((await other.get('slow'))?.fields.seen).toBe('from-holder');
  });

  it('two processes are never inside withConnectionLock at once', async () => {
    const root = await transpileForChild(STORE_SOURCES);
    // Each round is a token refresh: read the connection, wait (the POST), write what was read plus one.
    const worker = `
      import { appendFile } from 'node:fs/promises';
      import { FileConnectionStore } from ${JSON.stringify(path.join(root, 'src/store/files/file-connection-store.js'))};
      const [home, name, journal] = process.argv.slice(2);
      const store = new FileConnectionStore(home);
      for (let round = 0; round < 4; round++) {
        await store.withConnectionLock('shared', async () => {
          await appendFile(journal, 'in ' + name + '\\n');
          const current = await store.get('shared');
          await new Promise((resolve) => setTimeout(resolve, 25));
          await store.put({ ...current, fields: { ...current.fields, n: String(Number(current.fields.n) + 1) } });
          await appendFile(journal, 'out ' + name + '\\n');
        });
      }
    `;
    const script = path.join(root, `lock-worker-${process.pid}.mjs`);
    await writeFile(script, worker);
    const journal = path.join(home(), 'journal.txt');
    const store = new FileConnectionStore(home());
    await store.put({ ...connection('shared', 't'), fields: { subdomain: 'acme', n: '0' } });
    await Promise.all(['a', 'b', 'c'].map((name) => run(process.execPath, [script, home(), name, journal])));
    const lines = (await readFile(journal, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(24);
    for (let at = 0; at < lines.length; at += 2) {
      // Every entry is followed by the same process's exit, before anyone else enters.
      expect(lines[at]).toMatch(/^in [abc]$/);
      expect(lines[at + 1]).toBe(lines[at]!.replace('in', 'out'));
    }
    expect((await store.get('shared'))?.fields.n).toBe('12');
    expect(await readdir(path.join(home(), 'connections'))).toEqual(['shared.json']);
  }, 60_000);
});
