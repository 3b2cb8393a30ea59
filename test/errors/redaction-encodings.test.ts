import { describe, expect, it } from 'vitest';
import { mentionsSecret, redactSecrets } from '../../src/errors/index.js';

/** A bearer token whose base64 holds `+`, `/` and padding, so every spelling of it differs. */
const TOKEN = 'tok_9f>?~Kq2Lw8Zr5Xv1Nm4Pj7Hs3???Dc6Gb0a';
const bytes = Buffer.from(TOKEN, 'utf8');
const padded = bytes.toString('base64');
const unpadded = padded.replace(/=+$/, '');
const urlSafe = (text: string) => text.replaceAll('+', '-').replaceAll('/', '_');

/** The token inside a longer JSON blob, starting `lead` bytes after a base64 group boundary, as base64. */
function blobWithTokenAt(lead: number): string {
  const before = Buffer.from('{"user":"sam@acme.example","token":"', 'utf8');
  const spaces = Buffer.alloc((lead - (before.length % 3) + 3) % 3, 0x20);
  const after = Buffer.from('","scope":"read write"}', 'utf8');
  return Buffer.concat([before, spaces, bytes, after]).toString('base64');
}

/** The base64 characters that only the token's bytes decide, at that offset. */
function tokenOwnRun(lead: number): string {
  const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
  return encoded.slice(lead ? 4 : 0, Math.floor((lead + bytes.length) / 3) * 4);
}

/** Whether any 8 characters in a row of `run` are still in the text. */
function holdsPartOf(text: string, run: string): boolean {
  for (let at = 0; at + 8 <= run.length; at++) if (text.includes(run.slice(at, at + 8))) return true;
  return false;
}

describe('redaction of encodings a provider may echo', () => {
  it('checks that the fixture token has + and / in its base64', () => {
    expect(padded).toMatch(/\+/);
    expect(padded).toMatch(/\//);
    expect(padded.endsWith('=')).toBe(true);
  });

  it.each([
    ['base64, padded', padded],
    ['base64, unpadded', unpadded],
    ['URL-safe base64, padded', urlSafe(padded)],
    ['URL-safe base64, unpadded', urlSafe(unpadded)],
    ['percent-encoded base64', encodeURIComponent(padded)],
    ['lower-case hex', bytes.toString('hex')],
    ['upper-case hex', bytes.toString('hex').toUpperCase()],
  ])('redacts the bare token spelled as %s', (_name, form) => {
    const text = `invalid credentials: ${form} (check the header)`;
    expect(mentionsSecret(text, [TOKEN])).toBe(true);
    expect(redactSecrets(text, [TOKEN])).toBe('invalid credentials: [redacted] (check the header)');
  });

  it.each([0, 1, 2])('redacts the token inside a longer base64 blob, %i bytes into a group', (lead) => {
    const blob = blobWithTokenAt(lead);
    expect(blob).toContain(tokenOwnRun(lead));
    for (const spelled of [blob, urlSafe(blob), encodeURIComponent(blob)]) {
      const redacted = redactSecrets(`payload=${spelled}; rejected`, [TOKEN]);
      expect(redacted.startsWith(`payload=${spelled.slice(0, 12)}`)).toBe(true);
      expect(redacted).toContain('[redacted]');
      for (const run of [tokenOwnRun(lead), urlSafe(tokenOwnRun(lead))]) {
        expect(holdsPartOf(redacted, run)).toBe(false);
      }
    }
  });

  it('redacts a cut-off prefix of the base64 before an ellipsis, mid-text', () => {
    const text = `auth header was Basic ${padded.slice(0, 20)}… and nothing else`;
    expect(redactSecrets(text, [TOKEN])).toBe('auth header was Basic [redacted]… and nothing else');
  });

  it('leaves short secrets’ encodings and ordinary base64 alone', () => {
    const short = 'abc123';
    const text = `ordinary ${Buffer.from(short).toString('base64')} ${Buffer.from(short).toString('hex')} text`;
    expect(redactSecrets(text, [short])).toBe(text);
    const other = Buffer.from('an unrelated payload of some length').toString('base64');
    expect(redactSecrets(`data ${other}`, [TOKEN])).toBe(`data ${other}`);
  });
});
