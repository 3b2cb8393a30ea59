import { describe, expect, it } from 'vitest';
import { RawHeaders } from '../../src/http/raw-headers.js';

/** undici's raw record as `request` hands it over: lower-case names, repeated headers as arrays. */
const RAW = {
  'content-type': 'application/json',
  'x-repeated': ['one', 'two'],
  'set-cookie': ['a=1', 'b=2'],
  constructor: 'a header, not a function',
  etag: '"abc"',
};

/** The same answer as fetch would give it. */
function fetchHeaders(): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(RAW)) {
    for (const each of typeof value === 'string' ? [value] : value) headers.append(name, each);
  }
  return headers;
}

describe('RawHeaders reads like the Headers fetch gives', () => {
  it('gets any case of a name, joins repeats, and knows no inherited names', () => {
    const raw = new RawHeaders(RAW);
    const real = fetchHeaders();
    for (const name of [
      'Content-Type',
      'x-repeated',
      'ETAG',
      'constructor',
      'toString',
      '__proto__',
      'none',
    ]) {
      expect(raw.get(name), name).toBe(real.get(name));
      expect(raw.has(name), name).toBe(real.has(name));
    }
    expect(raw.getSetCookie()).toEqual(real.getSetCookie());
  });

  it('iterates in name order, as Headers does', () => {
    const seen: string[] = [];
    new RawHeaders(RAW).forEach((value, name) => {
      seen.push(`${name}=${value}`);
    });
    const expected: string[] = [];
    fetchHeaders().forEach((value, name) => {
      expected.push(`${name}=${value}`);
    });
    // Headers lists each set-cookie on its own; a raw record keeps them as one joined value.
    const withoutCookies = (list: string[]) => list.filter((entry) => !entry.startsWith('set-cookie='));
    expect(withoutCookies(seen)).toEqual(withoutCookies(expected));
    const names: string[] = [];
    fetchHeaders().forEach((_value, name) => {
      names.push(name);
    });
    expect([...new RawHeaders(RAW).keys()]).toEqual([...new Set(names)]);
  });

  it('joins every value for a secret search, each on a line of its own, set-cookie and repeats included', () => {
    const lines = new RawHeaders(RAW).joinedValues().split('\n');
    expect(lines.pop()).toBe('');
    const expected: string[] = [];
    new RawHeaders(RAW).forEach((value) => {
      expected.push(value);
    });
    expect(lines.sort()).toEqual(expected.sort());
  });

  it('changes only its own copy', () => {
    const record = { 'x-a': '1' };
    const headers = new RawHeaders(record);
    headers.set('X-B', '2');
    headers.append('x-a', '3');
    headers.delete('x-missing');
    expect(headers.get('x-b')).toBe('2');
    expect(headers.get('x-a')).toBe('1, 3');
    expect(record).toEqual({ 'x-a': '1' });
  });
});
