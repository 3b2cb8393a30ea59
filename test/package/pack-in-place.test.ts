import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = process.cwd();

/** What `git status` says of tracked files (untracked ones left out): empty when none changed. */
async function trackedChanges(folder: string): Promise<string> {
  return (await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: folder })).stdout;
}

/** Runs `npm` in `folder`, answering its exit code and output instead of throwing on a failure. */
async function npm(folder: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npm', args, { cwd: folder, maxBuffer: 16 << 20 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: Number(failed.code ?? 1), output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/**
 * `npm pack` or `npm publish` run in a clone must never rewrite the files git
 * tracks, even when the pack fails half-way: a failed pack once left
 * package.json without its `prepare` and manifest.json compact. The
 * published forms are made in a staged copy (`npm run pack:staged`); in the
 * clone itself, `prepack` refuses before anything is written.
 */
describe('packing never rewrites tracked files', () => {
  let copy = '';

  beforeAll(async () => {
    // A clone's packing files as a repository of their own: package.json with
    // its scripts as they are, the documents it packs, and scripts/. Its build
    // is a no-op, since only what packing does to tracked files is under test.
    copy = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-pack-in-place-'));
    const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
    manifest.scripts.build = 'node -e ""';
    writeFileSync(path.join(copy, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const file of ['manifest.json', 'builder-openapi.json', 'README.md', 'LICENSE', 'scripts']) {
      cpSync(path.join(repo, file), path.join(copy, file), { recursive: true });
    }
    await run('git', ['init', '--quiet'], { cwd: copy });
    await run('git', ['add', '.'], { cwd: copy });
    await run(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', 'c'],
      {
        cwd: copy,
      },
    );
  }, 60_000);

  afterAll(() => rm(copy, { recursive: true, force: true }));

  it('a pack that fails half-way (its tarball cannot be written) leaves every tracked file as it was', async () => {
    const failed = await npm(copy, ['pack', '--pack-destination', path.join(copy, 'no', 'such', 'folder')]);
    expect(failed.code).not.toBe(0);
    expect(await trackedChanges(copy)).toBe('');
  }, 120_000);

  it('npm pack and npm publish in a clone refuse before writing anything, pointing at npm run pack:staged', async () => {
    for (const args of [
      ['pack', '--dry-run'],
      ['publish', '--dry-run'],
    ]) {
      const refused = await npm(copy, args);
      expect(refused.code, args.join(' ')).not.toBe(0);
      expect(refused.output).toContain('npm run pack:staged');
    }
    expect(await trackedChanges(copy)).toBe('');
  }, 120_000);
});
