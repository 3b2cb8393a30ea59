/** Scripts kept out of the published package.json; see published-manifest.mjs. */
export const CONTRIBUTOR_SCRIPTS: readonly string[];
/** Exported JSON documents (manifest.json, builder-openapi.json) packed without indentation. */
export const COMPACTED_DOCUMENTS: readonly string[];
/** Turns the staged copy in `folder` into its published form (no contributor scripts, compact JSON documents); refuses the repository itself. */
export function writePublishedForms(folder: string): void;
