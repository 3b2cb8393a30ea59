/** Packs the package built under `stage` the way `npm pack` does; see pack-package.mjs. */
export function packStage(stage: string, destination: string): Promise<string>;
/** Builds the current sources into `stage` as `npm run build` builds them into the repository. */
export function buildStage(stage: string): Promise<void>;
