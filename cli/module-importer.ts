/**
 * An `import()` for code that cannot call it. The command tree runs as a vm
 * script (cli/code-cached-require.ts), where Node refuses `import()` without
 * an experimental option; the bin, a module Node loads itself, leaves one
 * here before it loads the tree. Kept apart from its users so the bin, which
 * holds only what `--version` and `search` need, takes in nothing else.
 */
const IMPORT_MODULE = Symbol.for('toolsteps.importModule');

/** Loads an ES module by URL, through Node's own loader. */
export type ImportModule = (specifier: string) => Promise<unknown>;

/** Called by the bin before it loads the command tree. */
export function provideImporter(importModule: ImportModule): void {
  (globalThis as Record<symbol, unknown>)[IMPORT_MODULE] = importModule;
}

/** The importer the bin left, or undefined when nothing ran the bin (a test requiring the tree directly). */
export function providedImporter(): ImportModule | undefined {
  return (globalThis as Record<symbol, unknown>)[IMPORT_MODULE] as ImportModule | undefined;
}
