/**
 * jose for the bundled CLI's command tree: the copy npm installs beside the
 * package (a dependency), rather than a second copy inside the bundle.
 * scripts/bundle-cli.mjs puts this module where src/tenants/load-jose.ts
 * would be; unbundled, the sources import jose themselves.
 *
 * Why through the bin's importer: jose is ES modules only. The command tree
 * is CommonJS run as a vm script (the code cache), which can neither call
 * `import()` nor, on Node 20.18, `require()` an ES module. Only `tokens
 * create` and a server checking a bearer token load it, once per process,
 * so its loading through Node's ES module loader is off every cold path.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { providedImporter } from './module-importer.js';

let loaded: Promise<typeof import('jose')> | undefined;

/** jose, imported on the first token signed or verified (as src/tenants/load-jose.ts does). */
export function loadJose(): Promise<typeof import('jose')> {
  loaded ??= importInstalledJose();
  return loaded;
}

async function importInstalledJose(): Promise<typeof import('jose')> {
  const importModule = providedImporter();
  if (!importModule) throw new Error('The bundled CLI loads jose through its bin; run the bin.');
  // Resolved from the bundle's own place, as any dependency of the package, and imported by its
  // URL: the bin's import() lives in a Function, which has no module a bare name resolves from.
  const entry = createRequire(import.meta.url).resolve('jose');
  return (await importModule(pathToFileURL(entry).href)) as typeof import('jose');
}
