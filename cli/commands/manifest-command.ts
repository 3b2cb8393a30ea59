import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../../src/errors/input-error.js';
import { cliRegistry } from '../cli-context.js';

/**
 * Where `toolsteps manifest` writes: `out` (default manifest.json) in the
 * current project. Never the package's own folder: run from an installed
 * copy, that would write into node_modules, where the next install silently
 * undoes it (and a global install may be shared by other users).
 */
export function manifestTarget(out = 'manifest.json', cwd = process.cwd()): string {
  const target = path.resolve(cwd, out);
  if (target.split(path.sep).includes('node_modules')) {
    throw new InputError(`Refused to write the manifest to ${target}: it is inside node_modules.`, [
      { path: 'out', message: 'give a path in your project, outside node_modules' },
    ]);
  }
  return target;
}

/** `manifest [--check] [--out file]`: regenerate manifest.json from the registry, or fail when it is stale. */
export default function registerManifestCommand(program: Command): void {
  program
    .command('manifest')
    .description('Regenerate manifest.json in the current project, or with --check fail when it is stale.')
    .option('--check', 'exit 1 when manifest.json differs from the registry')
    .option('--stdout', 'print the manifest instead of writing it')
    .option('--out <file>', 'the file to write or check, relative to the current folder', 'manifest.json')
    .action(async (options: { check?: boolean; stdout?: boolean; out?: string }) => {
      const [{ buildManifest, serializeManifest }, registry] = await Promise.all([
        import('../../src/catalog/manifest.js'),
        cliRegistry(),
      ]);
      const text = serializeManifest(buildManifest(registry));
      if (options.stdout) {
        process.stdout.write(text);
        return;
      }
      const file = manifestTarget(options.out);
      if (options.check) {
        const current = await readFile(file, 'utf8').catch(() => '');
        if (current !== text) {
          process.stderr.write(`${file} is stale: run \`toolsteps manifest\` and commit the result.\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`${file} is up to date.\n`);
        return;
      }
      await writeFile(file, text);
      process.stdout.write(`Wrote ${file}.\n`);
    });
}
