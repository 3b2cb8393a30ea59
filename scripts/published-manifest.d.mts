/** Scripts kept out of the published package.json; see published-manifest.mjs. */
export const CONTRIBUTOR_SCRIPTS: readonly string[];
/** Removes the contributor-only scripts from `folder`/package.json, keeping the original beside it. */
export function strip(folder?: string): void;
/** Puts back the package.json that `strip` kept, when there is one. */
export function restore(folder?: string): void;
