import type { Metafile } from 'esbuild';

/** Bundles the CLI's compiled main module into the bin and its command tree; see bundle-cli.mjs. */
export function bundleCli(options?: { entry?: string; outfile?: string }): Promise<Metafile>;
