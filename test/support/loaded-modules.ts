import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The benchmark's loader hook: run under `node --import MODULE_HOOK`, a child
 * writes every file Node loads to the file named by TOOLSTEPS_MODULE_LOG, so a
 * test can say what a start of the CLI or an import of the library paid for.
 */
export const MODULE_HOOK = pathToFileURL(path.resolve('bench/startup/count-loaded-modules.mjs')).href;

/** The version a `--version` prints. */
export const PACKAGE_VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version as string;

/** The files of `files` that match a forbidden pattern, named by what they are. */
export function offenders(files: string[], forbidden: Record<string, RegExp>): string[] {
  return files.flatMap((file) =>
    Object.entries(forbidden)
      .filter(([, pattern]) => pattern.test(file))
      .map(([what]) => `${what}: ${file}`),
  );
}
