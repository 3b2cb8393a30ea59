import { describe, expect, it } from 'vitest';
import { redactDeep, redactSecrets, redactThenCut } from '../../src/errors/index.js';

const SECRET = 'sk_live_0123456789abcdef+/=';

describe('redaction', () => {
  it('redacts a secret as is, URL-encoded, form-encoded and JSON-escaped', () => {
    const text = `a ${SECRET} b ${encodeURIComponent(SECRET)} c ${new URLSearchParams({ k: SECRET })} d ${JSON.stringify(`"${SECRET}`)}`;
    const redacted = redactSecrets(text, [SECRET]);
    expect(redacted).not.toContain('0123456789abcdef');
    expect(redacted.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('redacts a prefix of 8+ characters where the text is cut, but not a shorter one', () => {
    expect(redactSecrets(`token ${SECRET.slice(0, 10)}`, [SECRET])).toBe('token [redacted]');
    expect(redactSecrets(`token ${SECRET.slice(0, 10)}...`, [SECRET])).toBe('token [redacted]...');
    expect(redactSecrets(`token ${SECRET.slice(0, 10)}…`, [SECRET])).toBe('token [redacted]…');
    expect(redactSecrets(`token ${SECRET.slice(0, 7)}`, [SECRET])).toBe(`token ${SECRET.slice(0, 7)}`);
  });

  it('redacts before cutting, so a secret at the cut leaves no prefix', () => {
    const text = `${'x'.repeat(290)} ${SECRET} tail`;
    const cut = redactThenCut(text, [SECRET], 300);
    expect(cut).not.toContain(SECRET.slice(0, 8));
    expect(cut.length).toBeLessThanOrEqual(301);
    expect(cut.endsWith('…')).toBe(true);
    // What cutting first would have printed:
    expect(`${text.slice(0, 300)}`).toContain(SECRET.slice(0, 8));
  });

  it('redactDeep keeps a `__proto__` key an ordinary key, and walks null-prototype objects', () => {
    const value = JSON.parse(`{"__proto__": {"token": "${SECRET}"}, "list": ["${SECRET}"]}`);
    const redacted = redactDeep(value, [SECRET]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.hasOwn(redacted, '__proto__')).toBe(true);
    expect(JSON.stringify(redacted)).not.toContain(SECRET);
    const bare = Object.assign(Object.create(null), { token: SECRET });
    expect(JSON.stringify(redactDeep(bare, [SECRET]))).toBe('{"token":"[redacted]"}');
  });
});
