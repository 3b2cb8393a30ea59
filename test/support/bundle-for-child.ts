import path from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleCli } from '../../scripts/bundle-cli.mjs';
import { transpileForChild } from './transpile-for-child.js';

/** The CLI as the package ships it, built from the current sources, and what went into it. */
export interface BundledCli {
  /** The bin's path: run it as `node <main> ...`. */
  main: string;
  /** The command tree's bundle, which the bin requires for any command but `--version` and `search`. */
  commands: string;
  metafile: Metafile;
}

/**
 * Compiles the CLI and every step, then bundles them the way `npm run build`
 * bundles tsc's output (scripts/bundle-cli.mjs), so a child process runs what
 * users run. Everything sits under node_modules/.cache/<cache>, inside the
 * repository, so the modules the bundle leaves outside (undici, json-p3, the
 * optional peers) resolve from the project's node_modules and package.json is
 * found above it. Test files that run at once pass their own `cache` folder.
 */
export async function bundleForChild(cache: string): Promise<BundledCli> {
  // The CLI imports the catalogue and each step by computed path, which the compiler does not follow.
  const root = await transpileForChild(['cli/main.ts', 'steps/index.ts'], cache);
  const main = path.join(root, 'cli/toolsteps.cjs');
  // No library bundle sits beside these: the command tree keeps its own sandbox.
  const metafile = await bundleCli({
    entry: path.join(root, 'cli/main.js'),
    outfile: main,
    librarySandbox: false,
  });
  return { main, commands: path.join(root, 'cli/toolsteps-commands.cjs'), metafile };
}
