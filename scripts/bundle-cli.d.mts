import type { Metafile } from 'esbuild';

/** Bundles the CLI's compiled main module into the bin and its command tree; see bundle-cli.mjs. */
export function bundleCli(options?: {
  entry?: string;
  outfile?: string;
  /** Load the sandbox from the library's bundle beside the CLI (default true; false for a CLI with no library beside it). */
  librarySandbox?: boolean;
}): Promise<Metafile>;
