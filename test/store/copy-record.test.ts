import { describe, expect, it } from 'vitest';
import { copyRecord } from '../../src/values/copy-record.js';

describe('copyRecord: what a store hands out is a copy all the way down', () => {
  it('copies nested objects and arrays, keeping every value', () => {
    const record = {
      id: 'main',
      fields: { subdomain: 'acme' },
      secrets: { accessToken: 'tok' },
      scopes: ['read', 'write'],
      expiresAt: undefined,
      nested: [{ deep: [1, { deeper: true }] }],
    };
    const copy = copyRecord(record);
    expect(copy).toEqual(record);
    expect(Object.keys(copy)).toEqual(Object.keys(record));
    copy.fields.subdomain = 'other';
    copy.scopes.push('admin');
    (copy.nested[0]?.deep[1] as { deeper: boolean }).deeper = false;
    expect(record.fields.subdomain).toBe('acme');
    expect(record.scopes).toEqual(['read', 'write']);
    expect(record.nested[0]?.deep[1]).toEqual({ deeper: true });
  });

  it('keeps an own __proto__ key a key, and leaves the prototype alone', () => {
    const record = JSON.parse('{"__proto__": {"polluted": true}, "id": "x"}') as Record<string, unknown>;
    const copy = copyRecord(record);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'id']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies what is not plain data with structuredClone', () => {
    const when = new Date(0);
    const copy = copyRecord({ when });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(0);
  });
});
