import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { NumericId, PathSegment } from '../../src/http/request-guards.js';

describe('PathSegment', () => {
  it('accepts ids that stay one segment, dots inside included', () => {
    // A lone % is no escape: the step encodes it (%25), and decoding that gives % back.
    for (const value of ['dpl_abc123', 'web', 'a.b', '...', 'my-app.vercel.app', 'user@x', '100%']) {
      expect(PathSegment().parse(value)).toBe(value);
    }
  });

  it.each([
    ['', 'cannot be empty'],
    ['.', '"." or ".."'],
    ['..', '"." or ".."'],
    ['a/b', '"/"'],
    ['a\\b', '"/"'],
    ['a\u0000b', 'control characters'],
    ['line\nbreak', 'control characters'],
    ['%2e%2e', '"." or ".."'],
    ['%2E', '"." or ".."'],
    ['%252e%252e', '"." or ".."'],
    ['a%2Fb', '"/"'],
    ['a%5cb', '"/"'],
    ['a%00', 'control characters'],
    ['%zz%e0', 'malformed'],
  ])('refuses %j', (value, message) => {
    const result = PathSegment().safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});

describe('NumericId', () => {
  it('accepts a positive integer, or a string of decimal digits, as a number', () => {
    expect(NumericId().parse(42)).toBe(42);
    expect(NumericId().parse('42')).toBe(42);
    expect(NumericId().parse('007')).toBe(7);
  });

  it.each([true, false, null, '0x10', [5], '1e3', ' 7', '4.0', '', '0', 0, -1, 1.5, Number.NaN, { id: 1 }])(
    'refuses %j without coercing it',
    (value) => {
      const result = NumericId().safeParse(value);
      expect(result.success).toBe(false);
    },
  );

  it('says what it wants, and the JSON Schema tells a model both forms', () => {
    expect(NumericId().safeParse(true).error?.issues[0]?.message).toBe(
      'must be a positive whole number, such as 42 or "42"',
    );
    const schema = z.toJSONSchema(NumericId(), { io: 'input', unrepresentable: 'any' });
    expect(schema).toMatchObject({
      anyOf: [
        { type: 'integer', exclusiveMinimum: 0 },
        { type: 'string', pattern: '^(?!0+$)[0-9]{1,15}$' },
      ],
    });
  });
});
