import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BundledCli, bundleForChild } from '../support/bundle-for-child.js';
import { useTempDir } from '../support/temp-dir.js';

/**
 * The bundled CLI compiles its command tree through V8's code cache, one file
 * per command under $TOOLSTEPS_HOME/cache (cli/command-tree.ts). These
 * runs are child processes of the bin as users run it: the cache must be
 * written once, read back (V8 accepting it leaves the file alone), never
 * trusted when someone else could have written it, and never change output.
 */

const run = promisify(execFile);
let bundled: BundledCli;
/** A fresh TOOLSTEPS_HOME for each test, private (0700) as the CLI makes one. */
const home = useTempDir('toolsteps-code-cache-');

beforeAll(async () => {
  bundled = await bundleForChild('toolsteps-code-cache');
}, 120_000);

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { stdout, stderr } = await run(process.execPath, [bundled.main, ...args], {
    env: { ...process.env, TOOLSTEPS_HOME: home(), NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout, stderr };
}

const cacheFolder = () => path.join(home(), 'cache');
const cacheFiles = () => (existsSync(cacheFolder()) ? readdirSync(cacheFolder()).sort() : []);
const only = (command: string) => {
  const files = cacheFiles().filter((name) => name.includes(`-${command}-${process.version}-`));
  expect(files).toHaveLength(1);
  return path.join(cacheFolder(), files[0]!);
};

describe('the code cache of the bundled CLI', () => {
  it('is marked by the first run, written by the second (0600 in a 0700 folder), then read back unchanged, with the same output', async () => {
    const first = await cli(['describe', 'ticketing.get_ticket_info']);
    const file = only('describe');
    expect(path.basename(file)).toMatch(
      new RegExp(
        `^code-[0-9a-f]{16}-describe-${process.version.replaceAll('.', '\\.')}-${process.arch}\\.bin$`,
      ),
    );
    // A command run once pays nothing for a cache it would never read.
    expect(statSync(file).size).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(cacheFolder()).mode & 0o777).toBe(0o700);

    expect(await cli(['describe', 'ticketing.get_ticket_info'])).toEqual(first);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(100_000);
    expect(written.mode & 0o777).toBe(0o600);

    expect(await cli(['describe', 'ticketing.get_ticket_info'])).toEqual(first);
    // V8 accepted it: a rejected cache would have been rewritten (a new file renamed over it).
    expect(statSync(file).ino).toBe(written.ino);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    await cli(['list']);
    expect(cacheFiles()).toHaveLength(2);
    only('list');
  }, 60_000);

  it('is not read when others could have written it, nor when it is not V8 code: it is replaced', async () => {
    const expected = await cli(['list']);
    expect(await cli(['list'])).toEqual(expected);
    const file = only('list');
    expect(statSync(file).size).toBeGreaterThan(0);
    chmodSync(file, 0o666);
    const widened = statSync(file).ino;
    expect(await cli(['list'])).toEqual(expected);
    // Not trusted, so not read: treated as never made (an empty file, 0600, in its place).
    expect(statSync(file).ino).not.toBe(widened);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size).toBe(0);

    writeFileSync(file, Buffer.alloc(700_000, 7), { mode: 0o600 });
    const garbage = statSync(file).ino;
    expect(await cli(['list'])).toEqual(expected);
    // V8 refused it, and the run wrote the real cache over it.
    expect(statSync(file).ino).not.toBe(garbage);
    expect(statSync(file).size).toBeGreaterThan(0);
  }, 60_000);

  it('is not made where there is no home yet, nor with TOOLSTEPS_CODE_CACHE=0', async () => {
    rmSync(home(), { recursive: true });
    await cli(['list']);
    expect(existsSync(home())).toBe(false);
    mkdirSync(home(), { mode: 0o700 });
    await cli(['list'], { TOOLSTEPS_CODE_CACHE: '0' });
    expect(cacheFiles()).toEqual([]);
  }, 60_000);

  it("deletes other builds' cache files untouched for a week, and nothing else", async () => {
    mkdirSync(cacheFolder(), { mode: 0o700 });
    const weekAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    const old = (name: string) => {
      writeFileSync(path.join(cacheFolder(), name), 'x', { mode: 0o600 });
      utimesSync(path.join(cacheFolder(), name), weekAgo, weekAgo);
    };
    old('code-0123456789abcdef-run-v20.0.0-x64.bin');
    old('code-0123456789abcdef-run-v20.0.0-x64.bin.123.abcdef.tmp');
    old('notes.txt');
    writeFileSync(path.join(cacheFolder(), 'code-fedcba9876543210-list-v22.0.0-x64.bin'), 'x', {
      mode: 0o600,
    });
    await cli(['list']);
    const left = cacheFiles();
    expect(left).toContain('notes.txt');
    expect(left).toContain('code-fedcba9876543210-list-v22.0.0-x64.bin');
    expect(left.filter((name) => name.startsWith('code-0123456789abcdef'))).toEqual([]);
    only('list');
  }, 60_000);

  it('runs a source edited after the build at the same length, not the old compiled code', async () => {
    const before = await cli(['describe', 'ticketing.get_ticket_info']);
    expect(await cli(['describe', 'ticketing.get_ticket_info'])).toEqual(before);
    expect(statSync(only('describe')).size).toBeGreaterThan(0);
    // V8 tells sources apart by length only: the cache must be keyed by the source as loaded.
    const original = readFileSync(bundled.commands);
    const edited = Buffer.from(
      original.toString('latin1').replaceAll('Get Ticket Info', 'GET TICKET INFO'),
      'latin1',
    );
    expect(edited.length).toBe(original.length);
    expect(edited.equals(original)).toBe(false);
    try {
      writeFileSync(bundled.commands, edited);
      const after = await cli(['describe', 'ticketing.get_ticket_info']);
      expect(after.stdout).toContain('GET TICKET INFO');
      expect(after.stdout).not.toBe(before.stdout);
    } finally {
      writeFileSync(bundled.commands, original);
    }
    expect(await cli(['describe', 'ticketing.get_ticket_info'])).toEqual(before);
  }, 60_000);

  it('does not hang on a FIFO planted where its cache file goes', async () => {
    await cli(['list']);
    const file = only('list');
    rmSync(file);
    execFileSync('mkfifo', ['-m', '600', file]);
    // An open that blocks waits for a writer that never comes; the run must not notice it.
    const started = Date.now();
    const { stdout } = await run(process.execPath, [bundled.main, 'list'], {
      env: { ...process.env, TOOLSTEPS_HOME: home(), NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(stdout).toContain('ticketing');
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it('neither reads nor writes a cache in a folder others can write', async () => {
    await cli(['list']);
    const file = only('list');
    chmodSync(cacheFolder(), 0o777);
    writeFileSync(file, Buffer.alloc(700_000, 7), { mode: 0o600 });
    const planted = statSync(file).ino;
    const { stdout } = await cli(['list']);
    expect(stdout).toContain('ticketing');
    // Not read (V8 would have refused it and the run would have replaced it), not written.
    expect(statSync(file).ino).toBe(planted);
    expect(cacheFiles()).toHaveLength(1);
  }, 60_000);
});
