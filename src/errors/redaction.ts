/**
 * Redaction: how a secret is kept out of every message, log line and output.
 *
 * Exact matching is not enough. A provider may echo a secret in one of the
 * encodings we put on the wire (URL-encoded in a form body, JSON-escaped, the
 * base64 of an HTTP Basic pair), and it may cut its own message in the middle
 * of a secret. So every secret is redacted in each form we can produce, and a
 * prefix of 8 or more characters of one is redacted where the text is cut
 * (at the end of the text, or before an ellipsis). Text is redacted before it
 * is cut (`redactThenCut`): cutting first could leave a prefix of a secret that
 * no longer matches the whole.
 */

import { isPlainRecord } from '../values/plain-record.js';

export const REDACTED = '[redacted]';
/** Shorter values would redact ordinary words; no credential we handle is this short. */
const MIN_SECRET_LENGTH = 4;
/** A cut-off prefix this long is treated as the secret itself. */
const MIN_PREFIX_LENGTH = 8;
const CUT_MARK = /(?:\s*(?:…|\.\.\.))?\s*$/u;

/** The base64 credential of an HTTP Basic header (RFC 7617), which is a secret of its own. */
export function basicCredential(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}

/** The forms of one secret that we ourselves may send: as is, URL-encoded, form-encoded, JSON-escaped. */
export function secretForms(secret: string): string[] {
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ]);
  return [...forms];
}

interface KnownSecret {
  /** `secretForms`, longest first. */
  forms: string[];
  /**
   * The first MIN_PREFIX_LENGTH characters of each form (the whole of a
   * shorter one), deduplicated: text that holds none of them holds neither a
   * form nor a cut-off prefix of one, so it needs no redaction.
   */
  needles: string[];
}

/** Secrets seen recently, with their forms worked out once (URLSearchParams is costly per call). */
const known = new Map<string, KnownSecret>();
const KNOWN_LIMIT = 1000;

function knownSecret(secret: string): KnownSecret {
  let entry = known.get(secret);
  if (!entry) {
    const forms = secretForms(secret).sort((a, b) => b.length - a.length);
    entry = { forms, needles: [...new Set(forms.map((form) => form.slice(0, MIN_PREFIX_LENGTH)))] };
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
 * Whether `text` may quote one of the secrets (in any form of
 * `secretForms`, or a cut-off prefix of one). False means redacting it would
 * change nothing; a few `includes` over the text, with no copy.
 */
export function mentionsSecret(text: string, secrets: Iterable<string | undefined>): boolean {
  for (const secret of usableSecrets(secrets)) {
    for (const needle of knownSecret(secret).needles) if (text.includes(needle)) return true;
  }
  return false;
}

/**
 * Whether a JSON text, once parsed, may hold one of the secrets. A JSON
 * escape (`\u0041`, `\/`) can spell a secret that the raw text does not
 * show, so a text that has one counts as quoting.
 */
export function jsonMentionsSecret(text: string, secrets: Iterable<string | undefined>): boolean {
  return mentionsSecret(text, secrets) || text.includes('\\u') || text.includes('\\/');
}

/** Replaces a cut-off prefix (8+ characters) of `form` that ends where the text is cut. */
function redactPrefixAtCut(text: string, form: string): string {
  const mark = CUT_MARK.exec(text);
  const end = mark ? mark.index : text.length;
  for (let length = Math.min(form.length - 1, end); length >= MIN_PREFIX_LENGTH; length--) {
    if (text.startsWith(form.slice(0, length), end - length)) {
      return `${text.slice(0, end - length)}${REDACTED}${text.slice(end)}`;
    }
  }
  return text;
}

/**
 * Replaces every occurrence of every secret in `text`, in every form of
 * `secretForms`, and a prefix of one where the text is cut.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  const usable = usableSecrets(secrets);
  if (!mentionsSecret(text, usable)) return text;
  const forms = usable
    .flatMap((secret) => knownSecret(secret).forms)
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  let result = text;
  for (const form of forms) result = result.split(form).join(REDACTED);
  for (const form of forms) result = redactPrefixAtCut(result, form);
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
