/** Bundles the UI kit and the reference page into `outdir` (dist/ui/); resolves with the kit bundle's path. */
export function bundleUi(options?: { outdir?: string }): Promise<string>;
