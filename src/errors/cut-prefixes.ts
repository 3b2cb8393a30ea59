/**
 * Cut-off prefixes of a secret. A provider that shortens its own message may
 * cut in the middle of a token and go on writing (`abcd1234efgh… rest`), so
 * a prefix is looked for wherever a text shows a cut, not only at its end.
 * A prefix followed by anything else is left: `sk_live_ keys` in ordinary
 * prose is not a cut token, and redacting it would hide words.
 */

/** A cut-off prefix this long is treated as the secret itself. */
export const MIN_PREFIX_LENGTH = 8;

/** The mark itself: an ellipsis, a word that says so, or a count of what was left out. */
const MARK = String.raw`(?:…|⋯|\.{2,}|(?:truncated|truncation|trimmed|snipped|snip|omitted|elided|cut off)\b|\+\d+|\d+\s+more\b)`;

/**
 * What marks a cut, right after the prefix (spaces and an opening bracket or
 * dash allowed between): the end of the text, an ellipsis (`…`, `⋯`, two or
 * more dots), a word that says so (`[truncated]`, `(trimmed)`, `--snip--`),
 * or a count of what was left out (`[+52 chars]`, `(120 more)`). No two
 * repeated parts can match the same characters (the brackets before the
 * second run of spaces are one or more), so a provider's long run of spaces
 * costs one pass, not a backtracking search.
 */
const CUT_MARK = new RegExp(String.raw`\s*(?:$|[[(<{\-–—_*]+\s*${MARK}|${MARK})`, 'iuy');

function cutAt(text: string, index: number): boolean {
  CUT_MARK.lastIndex = index;
  return CUT_MARK.test(text);
}

/** How many characters of `form` the text spells from `at` on (it holds the first MIN_PREFIX_LENGTH there). */
function matchedLength(text: string, at: number, form: string): number {
  let length = MIN_PREFIX_LENGTH;
  while (length < form.length && text.charCodeAt(at + length) === form.charCodeAt(length)) length++;
  return length;
}

/**
 * Replaces with `replacement` every prefix (MIN_PREFIX_LENGTH or more
 * characters) of `form` that the text follows with a cut mark. Run it after
 * the whole forms are replaced: a whole form found here is replaced too.
 */
export function redactCutPrefixes(text: string, form: string, replacement: string): string {
  if (form.length <= MIN_PREFIX_LENGTH) return text;
  const needle = form.slice(0, MIN_PREFIX_LENGTH);
  // Kept parts joined once at the end: replacing in place would copy the text once a prefix.
  const parts: string[] = [];
  let kept = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    const length = matchedLength(text, at, form);
    if (length === form.length || cutAt(text, at + length)) {
      parts.push(text.slice(kept, at), replacement);
      kept = at + length;
      at = text.indexOf(needle, kept);
    } else {
      at = text.indexOf(needle, at + 1);
    }
  }
  if (!parts.length) return text;
  parts.push(text.slice(kept));
  return parts.join('');
}
