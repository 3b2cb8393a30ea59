import { createRegistry } from '../../steps/index.js';
import { FileConnectionStore } from '../connection/file-store.js';
import { Runtime } from '../runtime.js';

/** What every command works with: the registry of steps and a runtime over the file store. */
export function cliContext() {
  const store = new FileConnectionStore();
  return { registry: createRegistry(), store, runtime: new Runtime({ store }) };
}
