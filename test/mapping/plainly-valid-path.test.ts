import { JSONPathEnvironment } from 'json-p3';
import { expect, it } from 'vitest';
import { PLAINLY_VALID_PATH } from '../../src/mapping/mapping.js';

const rfc9535 = new JSONPathEnvironment({ strict: true });

/**
 * `definedMappingProblem` leaves paths of the plainly valid form uncompiled,
 * so every one of them must be one the JSONPath engine compiles; and what
 * the engine refuses must not be of that form.
 */
it('takes only paths the RFC 9535 engine compiles', () => {
  const plain = [
    '$',
    '$.a',
    '$.person.emails[0].address',
    '$.tickets[*].id',
    '$[0]',
    '$[12][*]',
    '$.list[999999999999999]',
    '$._x.Y9[*][3]',
    "$.results[?@.status == 'matched'].contact",
    "$.results[?@.a.b!='x y-z'][0]",
    "$[?@.kind=='']",
    "$.a[?@.b == '~!#$%&()*+,-./:;<=>?@[]^_`{|}']",
  ];
  for (const path of plain) {
    expect(PLAINLY_VALID_PATH.test(path), path).toBe(true);
    expect(() => rfc9535.compile(path), path).not.toThrow();
  }
  const refused = [
    '$.a[01]',
    '$.a[-0]',
    '$[',
    '$.9a',
    '$.a.',
    '$..a[',
    'a.b',
    '$.a[?',
    "$.a[?@.b == 'it's']",
    "$.a[?@.b == 'back\\slash']",
    "$.a[?@.b == 'x'",
    "$.a[?@.b = 'x']",
    "$.a[?@.b == 'line\nbreak']",
  ];
  for (const path of refused) {
    expect(PLAINLY_VALID_PATH.test(path), path).toBe(false);
    expect(() => rfc9535.compile(path), path).toThrow();
  }
});
