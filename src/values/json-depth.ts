/**
 * Whether a JSON-like value nests deeper than `limit` objects and arrays.
 * The recursion stops `limit` levels down, so a hostile value (200,000
 * nested arrays) cannot overflow the stack while we measure it, and a real
 * answer is walked without allocating anything.
 */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (const child of value) if (nestingDepthExceeds(child, limit - 1)) return true;
    return false;
  }
  // for-in, not Object.values: no array per object (JSON.parse makes own, plain keys only).
  const record = value as Record<string, unknown>;
  for (const key in record) if (nestingDepthExceeds(record[key], limit - 1)) return true;
  return false;
}

/** Deeper than any real provider answer or step input; shallow enough for every recursive walk we make. */
export const MAX_JSON_DEPTH = 256;
