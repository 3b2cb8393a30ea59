/** The package each docs/agents/ page's runtime is, by page name; see page-parts.mjs. */
export const RUNTIME_CORE: Record<string, string>;
/** A page's `npm install` lines (as arguments), its whole ```ts examples and the tsconfig it asks for. */
export function pageParts(file: string): {
  installs: string[][];
  examples: { file: string; code: string }[];
  tsconfig: Record<string, unknown>;
};
