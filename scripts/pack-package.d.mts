/** Packs the package built under `stage` in its published form; see pack-package.mjs. */
export function packStage(stage: string, destination: string): Promise<string>;
/** Builds the current sources into `stage` as `npm run build` builds them into the repository. */
export function buildStage(stage: string): Promise<void>;
/** Where `npm run pack:staged` builds when given no stage. */
export const DEFAULT_STAGE: string;
