import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors/input-error.js';
import { DEFAULT_TENANT, isTenantId, parseTenantId } from '../../src/model/tenant-id.js';

describe('tenant ids', () => {
  it('accepts lower-case ids of the pattern, default among them', () => {
    for (const id of ['acme', 'globex', 'a', '0', 'org_1-x', 'a'.repeat(63), DEFAULT_TENANT]) {
      expect(parseTenantId(id)).toBe(id);
    }
  });

  it.each([
    '',
    'Acme',
    'ACME',
    '../b',
    'b/../a',
    '%2e%2e',
    '.',
    '-a',
    '_a',
    'a b',
    'a.b',
    'a'.repeat(64),
    'acme\n',
    'é',
  ])('refuses %j with a clear input error naming the field', (raw) => {
    expect(isTenantId(raw)).toBe(false);
    try {
      parseTenantId(raw);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).code).toBe('input_invalid');
      expect((error as InputError).fields).toEqual([{ path: 'tenant', message: expect.any(String) }]);
      expect((error as InputError).message).toMatch(/Invalid tenant id/);
    }
  });

  it('refuses a value that is not a string', () => {
    for (const raw of [undefined, null, 7, {}, ['acme']])
      expect(() => parseTenantId(raw)).toThrow(InputError);
  });
});
