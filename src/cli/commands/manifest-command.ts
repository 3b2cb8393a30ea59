import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { createRegistry } from '../../../steps/index.js';
import { buildManifest, serializeManifest } from '../../manifest.js';
import { packageRoot } from '../../package-root.js';

export function manifestPath(): string {
  return path.join(packageRoot(), 'manifest.json');
}

/** `manifest [--check]`: regenerate manifest.json from the registry, or fail when it is stale. */
export function registerManifestCommand(program: Command): void {
  program
    .command('manifest')
    .description('Regenerate manifest.json, or with --check fail when it is stale.')
    .option('--check', 'exit 1 when manifest.json differs from the registry')
    .option('--stdout', 'print the manifest instead of writing it')
    .action(async (options: { check?: boolean; stdout?: boolean }) => {
      const text = serializeManifest(buildManifest(createRegistry()));
      if (options.stdout) {
        process.stdout.write(text);
        return;
      }
      const file = manifestPath();
      if (options.check) {
        const current = await readFile(file, 'utf8').catch(() => '');
        if (current !== text) {
          process.stderr.write('manifest.json is stale: run `toolsteps manifest` and commit the result.\n');
          process.exitCode = 1;
          return;
        }
        process.stdout.write('manifest.json is up to date.\n');
        return;
      }
      await writeFile(file, text);
      process.stdout.write(`Wrote ${file}.\n`);
    });
}
