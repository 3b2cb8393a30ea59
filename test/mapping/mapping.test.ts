import { describe, expect, it } from 'vitest';
import { compileMapping, mapVariables } from '../../src/mapping/mapping.js';

const output = { ticket: { id: 4, tags: ['a', 'b'] }, tickets: [{ id: 1 }, { id: 2 }], empty: null };

describe('variable mapping (RFC 9535 JSONPath)', () => {
  it('a singular path gives a value, or null when absent', () => {
    expect(
      mapVariables(output, { id: '$.ticket.id', first_tag: '$.ticket.tags[0]', missing: '$.nope.deeper' }),
    ).toEqual({
      id: 4,
      first_tag: 'a',
      missing: null,
    });
  });
  it('any other path gives the list of every match', () => {
    expect(
      mapVariables(output, { ids: '$.tickets[*].id', all: '$..id', filtered: '$.tickets[?@.id > 1].id' }),
    ).toEqual({
      ids: [1, 2],
      all: [4, 1, 2],
      filtered: [2],
    });
  });
  it('refuses invalid expressions and names with the failing variable named', () => {
    expect(() => compileMapping({ bad: '$.a[' })).toThrowError(/variables\.bad/);
    expect(() => compileMapping({ '9lives': '$.a' })).toThrowError(/variables\.9lives/);
    expect(() => compileMapping({ code: 'constructor.constructor("return process")()' })).toThrowError();
  });
});
