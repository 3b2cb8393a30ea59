import type { Metafile } from 'esbuild';

/** Bundles the CLI's main module into one CommonJS file; see bundle-cli.mjs. */
export function bundleCli(options?: { entry?: string; outfile?: string }): Promise<Metafile>;
