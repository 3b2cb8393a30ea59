import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildStage, packStage } from '../../scripts/pack-package.mjs';

const repo = process.cwd();
/** Where the build is staged (its incremental state kept between runs) and the tarballs kept, by content. */
const STAGE = path.join(repo, 'node_modules/.cache/published-package');
const PACKED = path.join(repo, 'node_modules/.cache/packed-package');
/** What goes into the tarball: the built folders' sources, the build's scripts and settings, and the shipped files. */
const INPUT_FOLDERS = ['src', 'cli', 'steps', 'sandbox', 'ui', 'scripts', 'docs'];
/** The shipped files outside dist/ as package.json's `files` names them: the list scripts/pack-package.mjs copies. */
const SHIPPED_FILES = (
  JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { files: string[] }
).files.filter((file) => !file.startsWith('dist/'));
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  ...SHIPPED_FILES,
];
/** A pack that takes longer than this died with its lock held: the next caller takes the lock over. */
const STALE_LOCK_MS = 10 * 60_000;

/** A hash of every file the tarball is made from, in a stable order. */
async function contentKey(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...INPUT_FILES];
  for (const folder of INPUT_FOLDERS) {
    const entries = await readdir(path.join(repo, folder), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile()) files.push(path.relative(repo, path.join(entry.parentPath, entry.name)));
    }
  }
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(await readFile(path.join(repo, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 24);
}

/** Takes the lock folder, waiting while another process holds it (and taking over one left by a dead pack). */
async function lock(folder: string): Promise<void> {
  for (;;) {
    try {
      await mkdir(folder);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const since = await stat(folder).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > STALE_LOCK_MS) await rm(folder, { recursive: true, force: true });
    else await sleep(500);
  }
}

/**
 * The package as scripts/pack-package.mjs packs it from the current sources
 * (the build and the published manifest), built in a staging folder, never
 * into the dist/ other tests run. Packed once per content: the test files
 * that install it (the published package, the outside integration) share
 * one tarball, and a run whose sources did not change since the last one
 * packs nothing. Two files asking at once: one packs, the other waits.
 */
export async function packedPackage(): Promise<string> {
  const key = await contentKey();
  const folder = path.join(PACKED, key);
  const done = async () => (await readdir(folder).catch(() => [])).find((name) => name.endsWith('.tgz'));
  const ready = await done();
  if (ready) return path.join(folder, ready);
  await mkdir(PACKED, { recursive: true });
  const held = path.join(PACKED, `${key}.lock`);
  await lock(held);
  try {
    const packedMeanwhile = await done();
    if (packedMeanwhile) return path.join(folder, packedMeanwhile);
    const partial = `${folder}.partial`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial);
    await buildStage(STAGE);
    const tarball = await packStage(STAGE, partial);
    // Tarballs of other contents are of sources since changed: only the newest is kept.
    for (const name of await readdir(PACKED)) {
      if (name !== path.basename(partial) && !name.endsWith('.lock')) {
        await rm(path.join(PACKED, name), { recursive: true, force: true });
      }
    }
    await rename(partial, folder);
    return path.join(folder, path.basename(tarball));
  } finally {
    await rm(held, { recursive: true, force: true });
  }
}
