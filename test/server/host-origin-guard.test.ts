import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/server/bearer-token.js';
import { HostOriginGuard, isLoopbackHost } from '../../src/server/host-origin-guard.js';

describe('the Host and Origin guard', () => {
  const loopback = new HostOriginGuard({
    boundHost: '127.0.0.1',
    allowedOrigins: ['https://app.example.com/'],
    loopbackOrigins: false,
  });

  it('answers a loopback-bound server only for loopback Host names (DNS rebinding)', () => {
    expect(loopback.check({ host: '127.0.0.1:4020' })).toEqual({ origin: undefined });
    expect(loopback.check({ host: 'localhost:4020' })).toEqual({ origin: undefined });
    expect(loopback.check({ host: '[::1]:4020' })).toEqual({ origin: undefined });
    expect(loopback.check({ host: 'evil.example:4020' })).toEqual({ refused: 'host' });
    expect(loopback.check({})).toEqual({ refused: 'host' });
    // The same Host again, after another: each is judged as the first time.
    expect(loopback.check({ host: '127.0.0.1:4020' })).toEqual({ origin: undefined });
    expect(loopback.check({ host: 'evil.example:4020' })).toEqual({ refused: 'host' });
    expect(loopback.check({ host: 'evil.example:4020' })).toEqual({ refused: 'host' });
  });

  it('passes a request without Origin, and a listed Origin; refuses any other', () => {
    const host = '127.0.0.1:4020';
    expect(loopback.check({ host, origin: 'https://app.example.com' })).toEqual({
      origin: 'https://app.example.com',
    });
    expect(loopback.check({ host, origin: 'https://evil.example' })).toEqual({ refused: 'origin' });
    expect(loopback.check({ host, origin: 'http://localhost:3000' })).toEqual({ refused: 'origin' });
  });

  it('allows loopback pages where told to, and checks no Host on a server bound beyond loopback', () => {
    const open = new HostOriginGuard({ boundHost: '0.0.0.0', allowedOrigins: [], loopbackOrigins: true });
    expect(open.check({ host: 'tools.example.com', origin: 'http://localhost:3000' })).toEqual({
      origin: 'http://localhost:3000',
    });
    expect(open.check({ host: 'tools.example.com', origin: 'https://evil.example' })).toEqual({
      refused: 'origin',
    });
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('bearer token parsing', () => {
  it('takes the token of a Bearer header, whatever the case of the scheme', () => {
    expect(bearerToken('Bearer abc.def-ghi')).toBe('abc.def-ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
  });

  it('takes nothing from another scheme, a blank, a space or a control character in it, or 4 KB more', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearer a\tb')).toBeUndefined();
    expect(bearerToken(`Bearer ${'a'.repeat(4097)}`)).toBeUndefined();
  });
});
