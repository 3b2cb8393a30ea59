/**
 * The forms a secret can take in a text: the ones we put on the wire, and
 * the encodings a provider (or a proxy, or a log line of theirs) may echo it
 * in. Each form is redacted like the secret itself, and a cut-off prefix of
 * one like a cut-off prefix of the secret.
 */

/** A secret shorter than this gets no encoded forms: its encodings would be as short as ordinary words or numbers. */
const MIN_ENCODED_SECRET_LENGTH = 8;
/**
 * The shortest base64 run of a secret inside a longer blob that we look for
 * (9 bytes of it): shorter runs could turn up in unrelated base64 by chance.
 */
const MIN_BLOB_RUN_LENGTH = 12;

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

/** One base64 text in the spellings it travels in: standard, URL-safe (RFC 4648 §5), percent-encoded. */
function base64Spellings(standard: string): string[] {
  return [standard, standard.replaceAll('+', '-').replaceAll('/', '_'), encodeURIComponent(standard)];
}

/**
 * The base64 characters that depend on the secret alone when it sits inside
 * a longer base64 blob, for each of the 3 byte offsets it can start at: the
 * 4-character groups that hold only its bytes. A group shared with a
 * neighbouring byte depends on that byte, so it is left out (at most 2
 * bytes of the secret at each end stay visible, never a usable credential).
 */
function base64BlobRuns(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (const lead of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
    const run = encoded.slice(lead ? 4 : 0, Math.floor((lead + bytes.length) / 3) * 4);
    if (run.length >= MIN_BLOB_RUN_LENGTH) runs.push(run);
  }
  return runs;
}

/**
 * The encodings of a secret that a provider may echo but we never send:
 * its base64 (padded or not, standard, URL-safe or percent-encoded, alone or
 * inside a longer blob) and its hex (either case). None for a short secret.
 */
export function encodedForms(secret: string): string[] {
  if (secret.length < MIN_ENCODED_SECRET_LENGTH) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const padded = bytes.toString('base64');
  const base64 = [padded, padded.replace(/=+$/, ''), ...base64BlobRuns(bytes)];
  const hex = bytes.toString('hex');
  return [...new Set([...base64.flatMap(base64Spellings), hex, hex.toUpperCase()])];
}
