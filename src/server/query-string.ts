/** What URLSearchParams would decode: escapes, `+` for a space, and anything beyond ASCII (it round-trips through UTF-8). */
const ENCODED = /[%+]|[^\x00-\x7f]/;

/**
 * A request's query as our servers read it, each name once with its last
 * value: what `Object.fromEntries(new URLSearchParams(text))` answers
 * (WHATWG's application/x-www-form-urlencoded parsing), without building a
 * URLSearchParams when nothing in the text is encoded. Every search request
 * of the builder reads one, and a plain `q=ticket&limit=20` needs no
 * decoding; text with `%`, `+` or beyond ASCII goes through URLSearchParams itself, so
 * decoding (and its answer to a malformed escape) stays the standard's.
 */
export function lastValues(text: string): Record<string, string> {
  if (ENCODED.test(text)) return Object.fromEntries(new URLSearchParams(text));
  const entries: [string, string][] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    entries.push(equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)]);
  }
  // fromEntries, not assignment: a name such as `__proto__` is an own property, as URLSearchParams makes it.
  return Object.fromEntries(entries);
}
