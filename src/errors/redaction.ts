/**
 * Redaction: how a secret is kept out of every message, log line and output.
 *
 * Exact matching is not enough. A provider may echo a secret in one of the
 * encodings we put on the wire (URL-encoded in a form body, JSON-escaped, the
 * base64 of an HTTP Basic pair) or in one we never send (its own base64 or
 * hex, alone or inside a longer blob), and it may cut its own message in the
 * middle of a secret. So every secret is redacted in each of those forms
 * (`secret-forms.ts`), and a prefix of 8 or more characters of one is
 * redacted where the text shows a cut (`cut-prefixes.ts`: at its end, or
 * before an ellipsis or a truncation mark anywhere in it). Text is redacted
 * before it is cut (`redactThenCut`): cutting first could leave a prefix of a
 * secret that no longer matches the whole.
 */

import { isPlainRecord } from '../values/plain-record.js';
import { MIN_PREFIX_LENGTH, redactCutPrefixes } from './cut-prefixes.js';
import { encodedForms, secretForms } from './secret-forms.js';

export { basicCredential, secretForms } from './secret-forms.js';

export const REDACTED = '[redacted]';
/** Shorter values would redact ordinary words; no credential we handle is this short. */
const MIN_SECRET_LENGTH = 4;

interface KnownSecret {
  /** `secretForms` and `encodedForms`, longest first. */
  forms: string[];
  /**
   * Any of the first MIN_PREFIX_LENGTH characters of each form (the whole of
   * a shorter one): text that holds none of them holds neither a form nor a
   * cut-off prefix of one, so it needs no redaction. One search for all of
   * them, because a secret has a dozen forms and one `includes` a form would
   * walk the text a dozen times (irregexp walks it once).
   */
  mention: RegExp;
  /**
   * `mention`, or a JSON escape (`\\u0041`, `\\/`) that could spell one once
   * parsed: what a JSON answer is searched with, in one walk of its text.
   */
  jsonMention: RegExp;
}

/** A pattern that matches `text` as it is. */
function literalPattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/gu, '\\$&');
}

/** Secrets seen recently, with their forms worked out once (URLSearchParams is costly per call). */
const known = new Map<string, KnownSecret>();
const KNOWN_LIMIT = 1000;

function knownSecret(secret: string): KnownSecret {
  let entry = known.get(secret);
  if (!entry) {
    const forms = [...new Set([...secretForms(secret), ...encodedForms(secret)])].sort(
      (a, b) => b.length - a.length,
    );
    const needles = new Set(forms.map((form) => form.slice(0, MIN_PREFIX_LENGTH)));
    // No `u` flag: a needle may end inside a surrogate pair, and must match code unit by code unit as `includes` does.
    const pattern = [...needles].map(literalPattern).join('|');
    entry = { forms, mention: new RegExp(pattern), jsonMention: new RegExp(`${pattern}|\\\\[u/]`) };
    // A long-lived process sees tokens rotate; forget them all rather than grow without bound.
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(secret, entry);
  }
  return entry;
}

function usableSecrets(secrets: Iterable<string | undefined>): string[] {
  const usable = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) usable.add(secret);
  }
  return [...usable];
}

/**
 * Whether `text` may quote one of the secrets (in any of its forms, or a
 * cut-off prefix of one). False means redacting it would change nothing;
 * one search of the text a secret, with no copy.
 */
export function mentionsSecret(text: string, secrets: Iterable<string | undefined>): boolean {
  for (const secret of usableSecrets(secrets)) if (knownSecret(secret).mention.test(text)) return true;
  return false;
}

/**
 * Whether a JSON text, once parsed, may hold one of the secrets. A JSON
 * escape (`\u0041`, `\/`) can spell a secret that the raw text does not
 * show, so a text that has one counts as quoting.
 */
export function jsonMentionsSecret(text: string, secrets: Iterable<string | undefined>): boolean {
  let searched = false;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    if (knownSecret(secret).jsonMention.test(text)) return true;
    searched = true;
  }
  // With no secret to search for, an escape still counts, as it always has.
  return !searched && (text.includes('\\u') || text.includes('\\/'));
}

/**
 * Replaces every occurrence of every secret in `text`, in every form, and a
 * prefix of one where the text shows a cut.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  // A secret none of whose needles the text holds has nothing in it to replace.
  const mentioned = usableSecrets(secrets).filter((secret) => knownSecret(secret).mention.test(text));
  if (!mentioned.length) return text;
  const forms = mentioned
    .flatMap((secret) => knownSecret(secret).forms)
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
  for (const form of forms) result = redactCutPrefixes(result, form, REDACTED);
  return result;
}

/**
 * Redacts, then cuts to at most `max` characters (an ellipsis marks the cut),
 * then redacts again: a provider's message may carry a secret at exactly the
 * place we cut it, and only the whole secret is recognised before the cut.
 */
export function redactThenCut(text: string, secrets: Iterable<string | undefined>, max: number): string {
  const list = [...secrets];
  const redacted = redactSecrets(text, list);
  if (redacted.length <= max) return redacted;
  return redactSecrets(`${redacted.slice(0, max)}…`, list);
}

/**
 * `redactSecrets` over every string (values and keys) inside a JSON-like
 * value; the value is copied only where it changes. A copy keeps the
 * original's prototype, and a key named `__proto__` stays an ordinary key.
 */
export function redactDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  const usable = usableSecrets(secrets);
  if (!usable.length) return value;
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return redactSecrets(item, usable);
    if (Array.isArray(item)) {
      const mapped = item.map(visit);
      return mapped.some((entry, index) => entry !== item[index]) ? mapped : item;
    }
    if (!isPlainRecord(item)) return item;
    let changed = false;
    const copy: Record<string, unknown> = Object.create(Object.getPrototypeOf(item));
    for (const [key, entry] of Object.entries(item)) {
      const next = visit(entry);
      const nextKey = redactSecrets(key, usable);
      if (next !== entry || nextKey !== key) changed = true;
      Object.defineProperty(copy, nextKey, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return changed ? copy : item;
  };
  return visit(value) as T;
}

/**
 * An error from outside the family (a bug in a step, say), rebuilt with its
 * secrets redacted: same class name, redacted message, no cause to leak from.
 */
export function redactForeignError(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = redactSecrets(
    error.message,
    secrets.filter((secret): secret is string => !!secret),
  );
  if (message === error.message) return error;
  const copy = new Error(message);
  Object.defineProperty(copy, 'name', { value: error.name, configurable: true, writable: true });
  return copy;
}
