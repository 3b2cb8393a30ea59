import { describe, expect, expectTypeOf, it } from 'vitest';
import { definedOnly } from '../../src/values/defined-only.js';

describe('definedOnly', () => {
  it('drops undefined values and keeps null, false, 0 and empty strings', () => {
    expect(definedOnly({ a: undefined, b: null, c: false, d: 0, e: '', f: 'x' })).toStrictEqual({
      b: null,
      c: false,
      d: 0,
      e: '',
      f: 'x',
    });
  });

  it('keeps the keys that cannot be undefined required in its type', () => {
    const value = definedOnly({ name: 'minute', limit: undefined as number | undefined });
    expectTypeOf(value.name).toEqualTypeOf<string>();
    expectTypeOf(value).toExtend<{ name: string; limit?: number }>();
    expectTypeOf(value.limit).toEqualTypeOf<number | undefined>();
  });
});
