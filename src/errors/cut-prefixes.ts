/**
 * Cut-off prefixes of a secret. A provider that shortens its own message may
 * cut in the middle of a token and go on writing (`abcd1234efgh… rest`), so
 * a prefix is looked for wherever a text shows a cut, not only at its end.
 * A prefix followed by anything else is left: `sk_live_ keys` in ordinary
 * prose is not a cut token, and redacting it would hide words.
 */

/** A cut-off prefix this long is treated as the secret itself. */
export const MIN_PREFIX_LENGTH = 8;

/**
 * What marks a cut, right after the prefix (spaces and an opening bracket or
 * dash allowed between): the end of the text, an ellipsis (`…`, `⋯`, two or
 * more dots), a word that says so (`[truncated]`, `(trimmed)`, `--snip--`),
 * or a count of what was left out (`[+52 chars]`, `(120 more)`).
 */
const CUT_MARK =
  /\s*(?:$|[[(<{\-–—_*]*\s*(?:…|⋯|\.{2,}|(?:truncated|truncation|trimmed|snipped|snip|omitted|elided|cut off)\b|\+\d+|\d+\s+more\b))/iuy;

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
  let result = text;
  let at = result.indexOf(needle);
  while (at !== -1) {
    const length = matchedLength(result, at, form);
    if (length === form.length || cutAt(result, at + length)) {
      result = `${result.slice(0, at)}${replacement}${result.slice(at + length)}`;
      at = result.indexOf(needle, at + replacement.length);
    } else {
      at = result.indexOf(needle, at + 1);
    }
  }
  return result;
}
