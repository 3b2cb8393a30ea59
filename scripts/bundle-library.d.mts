/** Bundles the package at `root` (compiled modules under `compiled`, its dist/ by default) into `root`/dist/lib/; see bundle-library.mjs. */
export function bundleLibrary(options?: { root?: string; compiled?: string }): Promise<void>;
/** The packages and Node built-ins a bundle of dist/lib/ imports at load (its static imports, through its chunks). */
export function importsAtLoad(bundle: string): Promise<string[]>;
