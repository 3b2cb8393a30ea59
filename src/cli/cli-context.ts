import type { Registry } from '../registry.js';

/**
 * The catalogue of every step. Loaded when a command first needs it, not when
 * the command tree is built, so `--version` and `--help` never load the steps.
 */
export async function cliRegistry(): Promise<Registry> {
  const { createRegistry } = await import('../../steps/index.js');
  return createRegistry();
}

/** What every command that calls a provider works with: the registry of steps and a runtime over the file store. */
export async function cliContext() {
  const [registry, { FileConnectionStore }, { Runtime }] = await Promise.all([
    cliRegistry(),
    import('../connection/file-store.js'),
    import('../runtime.js'),
  ]);
  const store = new FileConnectionStore();
  return { registry, store, runtime: new Runtime({ store }) };
}
