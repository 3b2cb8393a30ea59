import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleCli } from '../../scripts/bundle-cli.mjs';
import { childCache, compiledModules, writeTree, writeWhole } from './transpile-for-child.js';

/** The CLI as the package ships it, built from the current sources, and what went into it. */
export interface BundledCli {
  /** The bin's path: run it as `node <main> ...`. */
  main: string;
  /** The command tree's bundle, which the bin requires for any command but `--version` and `search`. */
  commands: string;
  metafile: Metafile;
}

/** What bundleCli writes beside the bin (the bin, the command tree, and their source maps). */
const BUNDLE_FILES = [
  'toolsteps.cjs',
  'toolsteps.cjs.map',
  'toolsteps-commands.cjs',
  'toolsteps-commands.cjs.map',
];

/**
 * Bundles already made, each in a folder named by a hash of everything that
 * makes it: the compiled modules, the bundling script, package.json (its
 * peers stay outside) and esbuild's version. A dozen test files run the
 * bundled CLI; the first bundles it, the others copy it.
 */
const BUNDLES = path.join(childCache(), 'toolsteps-cli-bundles');
const ESBUILD_VERSION: string = createRequire(import.meta.url)('esbuild/package.json').version;
async function bundleKey(outputs: Map<string, string>): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`esbuild ${ESBUILD_VERSION}\0`);
  for (const file of ['scripts/bundle-cli.mjs', 'package.json']) {
    hash.update(`${file}\0${await readFile(path.resolve(file), 'utf8')}\0`);
  }
  for (const [file, output] of [...outputs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`${file}\0${output}\0`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Stands for the caller's tree (`node_modules/.cache/<cache>`) in a stored
 * bundle: the metafile names its modules by that path, and so do the source
 * maps where node_modules is a link to another checkout's (esbuild follows it).
 */
const TREE = '.cache/<tree>/';
const treeOf = (cache: string) => `.cache/${cache}/`;

/** Text with every mention of one tree swapped for another's. */
const moveTree = (text: string, from: string, to: string) => text.split(from).join(to);

/**
 * The stored bundle copied into the caller's tree, or undefined when none is
 * stored (or it went while being read: a week-old one is pruned).
 */
async function copyStored(stored: string, root: string, cache: string): Promise<Metafile | undefined> {
  try {
    const metafile = await readFile(path.join(stored, 'metafile.json'), 'utf8');
    for (const file of BUNDLE_FILES) {
      const text = await readFile(path.join(stored, file), 'utf8');
      await writeWhole(path.join(root, 'cli', file), moveTree(text, TREE, treeOf(cache)));
    }
    await chmod(path.join(root, 'cli/toolsteps.cjs'), 0o755);
    return JSON.parse(moveTree(metafile, TREE, treeOf(cache))) as Metafile;
  } catch {
    return undefined;
  }
}

/** Keeps a bundle just made for the next callers; a folder that is there already was stored by another. */
async function store(stored: string, root: string, cache: string, metafile: Metafile): Promise<void> {
  const partial = `${stored}.${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  for (const file of BUNDLE_FILES) {
    const text = await readFile(path.join(root, 'cli', file), 'utf8');
    await writeFile(path.join(partial, file), moveTree(text, treeOf(cache), TREE));
  }
  await writeFile(
    path.join(partial, 'metafile.json'),
    moveTree(JSON.stringify(metafile), treeOf(cache), TREE),
  );
  await rename(partial, stored).catch(() => rm(partial, { recursive: true, force: true }));
}

/**
 * Compiles the CLI and every step, then bundles them the way `npm run build`
 * bundles tsc's output (scripts/bundle-cli.mjs), so a child process runs what
 * users run. Everything sits under node_modules/.cache/<cache>, inside the
 * repository, so the modules the bundle leaves outside (undici, json-p3, the
 * optional peers) resolve from the project's node_modules and package.json is
 * found above it. Test files that run at once pass their own `cache` folder.
 * A bundle of the same modules is made once and copied after, alone (the
 * compiled modules are written only to make it); the test run's global setup
 * makes it first (test/support/global-setup.ts).
 */
export async function bundleForChild(cache: string): Promise<BundledCli> {
  // The CLI imports the catalogue and each step by computed path, which the compiler does not follow;
  // no source imports cli/installed-jose.ts: the bundling puts it in place of src/tenants/load-jose.ts.
  const outputs = await compiledModules(['cli/main.ts', 'steps/index.ts', 'cli/installed-jose.ts']);
  const root = path.join(childCache(), cache);
  const main = path.join(root, 'cli/toolsteps.cjs');
  const commands = path.join(root, 'cli/toolsteps-commands.cjs');
  const stored = path.join(BUNDLES, await bundleKey(outputs));
  const copied = await copyStored(stored, root, cache);
  if (copied) return { main, commands, metafile: copied };
  await writeTree(outputs, cache);
  // No library bundle sits beside these: the command tree keeps its own sandbox.
  const metafile = await bundleCli({
    entry: path.join(root, 'cli/main.js'),
    outfile: main,
    librarySandbox: false,
  });
  await store(stored, root, cache, metafile);
  return { main, commands, metafile };
}
