import type { Registry } from '../registry.js';
import { cliStores } from './cli-stores.js';

/**
 * The catalogue of every step. Loaded when a command first needs it, not when
 * the command tree is built, so `--version` and `--help` never load the steps.
 */
export async function cliRegistry(): Promise<Registry> {
  const { createRegistry } = await import('../../steps/index.js');
  return createRegistry();
}

/**
 * What every command that calls a provider works with: the registry of
 * steps and a runtime over the connection store (files, or Redis with
 * TOOLSTEPS_REDIS_URL, whose coordinator then shares the rate gates).
 */
export async function cliContext() {
  const [registry, stores, { Runtime }] = await Promise.all([
    cliRegistry(),
    cliStores(),
    import('../runtime.js'),
  ]);
  const store = stores.connections;
  const runtime = new Runtime({ store, ...(stores.coordinator ? { coordination: stores.coordinator } : {}) });
  return { registry, store, runtime, stores };
}
