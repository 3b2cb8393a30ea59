import { describe, expect, it } from 'vitest';
import { addressGroup } from '../../src/server/address-group.js';

describe('the address a per-address connection limit counts by', () => {
  it('is an IPv4 address as is, also when mapped into IPv6', () => {
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(addressGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const group = '2001:db8:0:1::/64';
    expect(addressGroup('2001:db8:0:1::5')).toBe(group);
    expect(addressGroup('2001:0DB8:0000:0001:ffff:1:2:3')).toBe(group);
    expect(addressGroup('2001:db8::1:0:0:0:7')).toBe('2001:db8:0:1::/64');
    expect(addressGroup('2001:db8:0:2::5')).not.toBe(group);
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('is empty for a connection that has already gone (no address)', () => {
    expect(addressGroup(undefined)).toBe('');
  });
});
