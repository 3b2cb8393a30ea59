import { JSONPathEnvironment, type JSONValue } from 'json-p3';
import { describe, expect, it } from 'vitest';
import { memberPath } from '../../src/mapping/member-path.js';

const rfc9535 = new JSONPathEnvironment({ strict: true });

const OUTPUTS: unknown[] = [
  { tickets: [{ id: 1 }, { id: 2, tags: ['a'] }, { name: 'no id' }], next_cursor: 'c2', has_more: true },
  { tickets: { first: { id: 1 }, second: { id: 2 } }, next_cursor: null },
  { tickets: [], nested: { deeper: { value: 0 } }, list: [[1, 2], [3]] },
  { constructor: 'own', toString: 1, __proto_: 2, length: 3 },
  [{ id: 1 }, { id: 2 }],
  'text',
  null,
  { tickets: [null, 1, 'x', [{ id: 9 }]] },
];

/** Only member names and wildcards: what `memberPath` takes on. */
const EXPRESSIONS = [
  '$',
  '$.tickets',
  '$.tickets[*]',
  '$.tickets[*].id',
  '$.tickets[*].tags[*]',
  '$.next_cursor',
  '$.missing',
  '$.nested.deeper.value',
  '$.list[*][*]',
  '$[*]',
  '$[*].id',
  '$.constructor',
  '$.toString',
  '$.length',
  '$.tickets.length',
  // Names that are keywords elsewhere in RFC 9535 are plain member names in shorthand.
  '$.true',
  '$.null',
  '$._private',
];

describe('the member-path fast path answers as RFC 9535 does', () => {
  it.each(EXPRESSIONS)('%s', (expression) => {
    const path = memberPath(expression);
    expect(path).toBeDefined();
    const query = rfc9535.compile(expression);
    // The fast path never loads the evaluator, so it must know singularity as RFC 9535 does.
    expect(path?.singular).toBe(query.singularQuery());
    for (const output of OUTPUTS) {
      const expected = query.query(output as JSONValue).values();
      expect(path?.values(output), JSON.stringify(output)).toEqual(expected);
    }
  });

  it('leaves every other expression to the general evaluator', () => {
    for (const expression of [
      '$..id',
      '$.tickets[0]',
      "$['tickets']",
      '$.tickets[?@.id]',
      '$.tickets[0:2]',
      '$.é',
    ]) {
      expect(memberPath(expression), expression).toBeUndefined();
    }
  });
});
