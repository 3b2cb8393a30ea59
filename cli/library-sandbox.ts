/**
 * Where the commands that start a sandbox (`sandbox`, `demo`, `ui`, `serve
 * --sandbox`, `eval`) load it from.
 *
 * Why: the package ships the sandbox once already, as the library's
 * `toolsteps/sandbox` (dist/lib/sandbox.js). The CLI's command tree used to
 * carry a second copy of every emulator, an eighth of the packed tarball, for
 * commands that start a server and run until stopped, where loading the
 * library's ES modules costs nothing anyone waits for. Only plain values
 * cross between the two copies (ports, URLs, keys, a governance seed), with
 * one exception: `eval` hands the CLI's registry to the library's
 * `sandboxTwins`, which reads integration definitions from it (as it does
 * any embedder's registry) and answers plain connection records; an error it
 * throws is known by its brand (`isToolstepsError`), not its class.
 *
 * The command tree cannot call `import()` itself: it asks cli/module-importer.ts.
 */
import { providedImporter } from './module-importer.js';

type SandboxModule = typeof import('../sandbox/index.js');

/**
 * Set by scripts/bundle-cli.mjs in the command tree's bundle: the library's
 * sandbox entry, relative to the bundle. Absent unbundled (tsc's output, the
 * tests' bundles), which import the sandbox's own modules.
 */
declare const TOOLSTEPS_LIBRARY_SANDBOX: string | undefined;

/** The sandbox's module: the library's copy in the bundled CLI, the sources' otherwise. */
export async function loadSandbox(): Promise<SandboxModule> {
  if (typeof TOOLSTEPS_LIBRARY_SANDBOX === 'undefined') return import('../sandbox/index.js');
  const importModule = providedImporter();
  if (!importModule) throw new Error('The bundled CLI loads the sandbox through its bin; run the bin.');
  return (await importModule(new URL(TOOLSTEPS_LIBRARY_SANDBOX, import.meta.url).href)) as SandboxModule;
}
