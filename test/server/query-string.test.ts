import { describe, expect, it } from 'vitest';
import { lastValues } from '../../src/server/query-string.js';

const standard = (text: string) => Object.fromEntries(new URLSearchParams(text));

describe("our servers' query reader", () => {
  it('answers what URLSearchParams answers, each name once with its last value', () => {
    // One line of texts, ' | ' between them: the empty query, plain ones, escapes, '+', repeats, odd pairs, non-ASCII.
    const texts = [
      '',
      ...'q=ticket&limit=20 | q=create%20ticket&limit=20 | q=a+b | q=1&q=2&q=3 | a&b=&=c&&d==e | x=%zz&y=%E2%82%AC | name=caf\u00e9 | __proto__=polluted&constructor=x | limit=1e3&limit='.split(
        ' | ',
      ),
    ];
    for (const text of texts) expect(lastValues(text), text).toEqual(standard(text));
  });

  it('keeps a name such as __proto__ an own property, and the prototype untouched', () => {
    const query = lastValues('__proto__=polluted');
    expect(Object.hasOwn(query, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
