import { describe, expect, it } from 'vitest';
import { redactSecrets, redactThenCut } from '../../src/errors/index.js';

const TOKEN = 'abcd1234efgh5678ijkl9012mnop';

describe('redaction of a token prefix where a provider cut its text', () => {
  it.each([
    ['a unicode ellipsis', '…'],
    ['three dots', '...'],
    ['an ellipsis after a space', ' …'],
    ['two dots', '..'],
    ['a bracketed ellipsis', '[…]'],
    ['[truncated]', '[truncated]'],
    ['(truncated)', ' (truncated)'],
    ['a dash and a word', '--snip--'],
    ['a count of what was left out', '[+52 chars]'],
    ['a count of lines left out', ' (12 more)'],
  ])('redacts a prefix of 8+ characters before %s in mid-text', (_name, mark) => {
    const text = `token ${TOKEN.slice(0, 12)}${mark} rest of text`;
    expect(redactSecrets(text, [TOKEN])).toBe(`token [redacted]${mark} rest of text`);
  });

  it('redacts every cut prefix, in every form, and keeps the 8-character minimum', () => {
    const text = `a ${TOKEN.slice(0, 9)}… b ${TOKEN.slice(0, 7)}… c ${encodeURIComponent(`${TOKEN}/`).slice(0, 10)}...`;
    expect(redactSecrets(text, [`${TOKEN}/`])).toBe(`a [redacted]… b ${TOKEN.slice(0, 7)}… c [redacted]...`);
  });

  it('leaves a prefix followed by ordinary text: a common start of tokens is not a secret', () => {
    const secret = 'sk_live_0123456789abcdef';
    const prose = 'keys start with sk_live_ and then, sk_live_0 is the first; sk_live_01: more';
    expect(redactSecrets(prose, [secret])).toBe(prose);
  });

  it('still redacts a prefix at the very end, and before a cut made by redactThenCut', () => {
    expect(redactSecrets(`token ${TOKEN.slice(0, 10)}`, [TOKEN])).toBe('token [redacted]');
    const cut = redactThenCut(`${'x'.repeat(95)} ${TOKEN.slice(0, 12)}… and ${TOKEN} tail`, [TOKEN], 100);
    expect(cut).not.toContain(TOKEN.slice(0, 8));
  });
});

describe('the cost of looking for cuts in a hostile text', () => {
  it('a prefix before a long run of spaces costs one pass, not a backtracking search', () => {
    // Base code took about 6 s for 40,000 spaces, growing with their square.
    const text = `${TOKEN.slice(0, 12)}${' '.repeat(200_000)}(${' '.repeat(200_000)}x`;
    const started = performance.now();
    expect(redactSecrets(text, [TOKEN])).toBe(text);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('many cut prefixes are replaced in one pass over the text', () => {
    const text = `${TOKEN.slice(0, 12)}… `.repeat(20_000);
    const started = performance.now();
    expect(redactSecrets(text, [TOKEN])).toBe('[redacted]… '.repeat(20_000));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
