/** Scripts kept out of the published package.json; see published-manifest.mjs. */
export const CONTRIBUTOR_SCRIPTS: readonly string[];
/** Exported JSON documents (manifest.json, builder-openapi.json) packed without indentation. */
export const COMPACTED_DOCUMENTS: readonly string[];
/** Removes the contributor-only scripts from `folder`/package.json and compacts the exported JSON documents, keeping each original beside it. */
export function strip(folder?: string): void;
/** Puts back the files that `strip` kept, where there are any. */
export function restore(folder?: string): void;
