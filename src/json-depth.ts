/**
 * How deep a JSON-like value nests, counted without recursion, so a hostile
 * value cannot overflow the stack while we measure it. Stops counting once
 * `limit` is passed.
 */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Deeper than any real provider answer or step input; shallow enough for every recursive walk we make. */
export const MAX_JSON_DEPTH = 256;
