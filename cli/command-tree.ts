import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultToolstepsHome } from '../src/disk/toolsteps-home.js';
import type { CodeCacheFolder } from './code-cached-require.js';
import { commandWord } from './command-word.js';
import { SERVING_COMMANDS } from './serving-commands.js';

/**
 * Set by scripts/bundle-cli.mjs in the bin it builds: where the command
 * tree's bundle is, beside it. Absent when main runs unbundled (tsc's
 * output, the tests), which imports program.js as a module.
 */
declare const TOOLSTEPS_COMMAND_TREE: { file: string } | undefined;

export { SERVING_COMMANDS };

/**
 * Every other top-level command: each keeps a code cache of its own, of the
 * functions it runs. Both lists name program.ts's commands again because the
 * bin must not load the command tree to read them; a test holds them equal.
 */
export const ONE_SHOT_COMMANDS: ReadonlySet<string> = new Set([
  'list',
  'search',
  'describe',
  'connections',
  'connect',
  'run',
  'options',
  'manifest',
  'demo',
  'doctor',
  'db',
  'triggers',
  'subscriptions',
  'tenants',
  'tokens',
  'audit',
  'eval',
]);

/** Whether the arguments start a command that serves until stopped (`mcp`, `listen`, ...). */
export function startsServingCommand(argv: readonly string[]): boolean {
  return SERVING_COMMANDS.has(commandWord(argv) ?? '');
}

/**
 * Where a one-shot command's code cache lives, under `$TOOLSTEPS_HOME/cache`,
 * once that home exists (the first connection makes it; a command that only
 * reads the catalogue creates nothing). One file per command, source (the
 * hash of the bundle as loaded) and Node version, so each holds what its
 * command compiles. `TOOLSTEPS_CODE_CACHE=0` turns it off.
 */
function codeCacheFolder(argv: readonly string[], env: NodeJS.ProcessEnv): CodeCacheFolder | undefined {
  if (env.TOOLSTEPS_CODE_CACHE === '0' || startsServingCommand(argv)) return undefined;
  const home = defaultToolstepsHome(env);
  if (!existsSync(home)) return undefined;
  const word = commandWord(argv) ?? '';
  const command = ONE_SHOT_COMMANDS.has(word) ? word : 'other';
  const folder = path.join(home, 'cache');
  return {
    folder,
    fileFor: (sourceHash) =>
      path.join(folder, `code-${sourceHash}-${command}-${process.version}-${process.arch}.bin`),
    isCacheFile: (name: string) => /^code-[\w.-]+\.(bin|tmp)$/.test(name),
  };
}

/**
 * The command tree (program.js): in the bundled bin, its own bundle, through
 * the code cache of the command the arguments name; unbundled, the module.
 */
export async function loadCommandTree(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<typeof import('./program.js')> {
  if (typeof TOOLSTEPS_COMMAND_TREE === 'undefined') return import('./program.js');
  const file = fileURLToPath(new URL(TOOLSTEPS_COMMAND_TREE.file, import.meta.url));
  const cache = codeCacheFolder(argv, env);
  // Imported here, not above: `--version` and a plain `search` never load node:vm.
  const { requireWithCodeCache } = await import('./code-cached-require.js');
  const { provideImporter } = await import('./module-importer.js');
  // A function Node compiles as part of this module, so its import() goes to Node's loader;
  // esbuild would turn a plain import() here into a require, which cannot load ES modules.
  provideImporter(
    new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>,
  );
  return requireWithCodeCache(file, cache) as typeof import('./program.js');
}
