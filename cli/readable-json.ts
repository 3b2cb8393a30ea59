/** How much of a value the readable (non --json) output shows; --json always prints everything. */
export interface CutLimits {
  /** Characters of one string. */
  maxString: number;
  /** Items of one list. */
  maxItems: number;
}

export const READABLE_LIMITS: CutLimits = { maxString: 300, maxItems: 25 };

/**
 * A value shortened for a terminal, still valid JSON: a long string keeps
 * its start and ends in "... (N more characters)", a long list keeps its
 * first items and ends in one string saying how many were left out.
 * `cuts` counts the values shortened, so the caller can say so.
 */
export function cutForReading(
  value: unknown,
  limits: CutLimits = READABLE_LIMITS,
): { value: unknown; cuts: number } {
  let cuts = 0;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (node.length <= limits.maxString) return node;
      cuts += 1;
      return `${node.slice(0, limits.maxString)}... (${node.length - limits.maxString} more characters)`;
    }
    if (Array.isArray(node)) {
      const kept = node.slice(0, limits.maxItems).map(walk);
      if (node.length <= limits.maxItems) return kept;
      cuts += 1;
      return [...kept, `... (${node.length - limits.maxItems} more items)`];
    }
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    }
    return node;
  };
  return { value: walk(value), cuts };
}
