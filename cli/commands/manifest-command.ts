import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Manifest } from '../../src/catalog/manifest.js';
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

/** Where the last release's manifest is kept, for the compatibility check (issue 41). */
const RELEASED_MANIFEST = 'contracts/released-manifest.json';

/**
 * The compatibility check of `manifest --check`: the breaking changes from
 * the released manifest to the current one, each printed on its own line;
 * true when there are none. A project without a released manifest (an
 * embedder's own) has nothing to compare with and passes, saying so.
 */
async function compatible(current: Manifest, releasedFile: string): Promise<boolean> {
  const text = await readFile(releasedFile, 'utf8').catch(() => undefined);
  if (text === undefined) {
    process.stdout.write(
      `No released manifest at ${releasedFile}: the compatibility check has nothing to compare.\n`,
    );
    return true;
  }
  const { breakingChanges } = await import('../../src/catalog/compatibility-check.js');
  const found = breakingChanges(JSON.parse(text) as Manifest, current);
  for (const change of found) process.stderr.write(`${change.message}\n`);
  if (found.length) {
    process.stderr.write(
      `${found.length} breaking change(s) against ${releasedFile}: make a new major (docs/writing-an-integration.md#versions).\n`,
    );
    return false;
  }
  process.stdout.write(`Compatible with ${releasedFile}.\n`);
  return true;
}

/** `manifest [--check] [--out file]`: regenerate manifest.json from the registry, or fail when it is stale or breaks the last release. */
export default function registerManifestCommand(program: Command): void {
  program
    .command('manifest')
    .description(
      'Regenerate manifest.json in the current project, or with --check fail when it is stale or breaks the last release.',
    )
    .option(
      '--check',
      'exit 1 when manifest.json differs from the registry, or when a step or trigger changed in a way that breaks saved configurations without a new major',
    )
    .option('--released <file>', 'the last release manifest the check compares with', RELEASED_MANIFEST)
    .option('--stdout', 'print the manifest instead of writing it')
    .option('--out <file>', 'the file to write or check, relative to the current folder', 'manifest.json')
    .action(async (options: { check?: boolean; stdout?: boolean; out?: string; released?: string }) => {
      const [{ buildManifest, serializeManifest }, registry] = await Promise.all([
        import('../../src/catalog/manifest.js'),
        cliRegistry(),
      ]);
      const manifest = buildManifest(registry);
      const text = serializeManifest(manifest);
      if (options.stdout) {
        process.stdout.write(text);
        return;
      }
      const file = manifestTarget(options.out);
      if (options.check) {
        const current = await readFile(file, 'utf8').catch(() => '');
        const fresh = current === text;
        if (fresh) process.stdout.write(`${file} is up to date.\n`);
        else process.stderr.write(`${file} is stale: run \`toolsteps manifest\` and commit the result.\n`);
        const released = path.resolve(options.released ?? RELEASED_MANIFEST);
        if (!(await compatible(manifest, released)) || !fresh) process.exitCode = 1;
        return;
      }
      await writeFile(file, text);
      process.stdout.write(`Wrote ${file}.\n`);
    });
}
