import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyException } from '../../src/http/classify-failures.js';
import { nodeHttpWire } from '../../src/http/node-http-wire.js';
import { guardEndpoint, guardHeaders } from '../../src/http/request-guards.js';
import { parseRetryAfter } from '../../src/http/retries.js';
import { type TicketingFixture, ticketingFixture } from '../support/ticketing-fixture.js';

describe('headers that steer the connection are refused like Host', () => {
  for (const name of ['Expect', 'Connection', 'Keep-Alive', 'TE', 'Trailer', 'Upgrade', 'HTTP2-Settings']) {
    it(`refuses a caller-set ${name} header`, () => {
      expect(() => guardHeaders({ [name]: 'x' })).toThrowError(/cannot be overridden/);
    });
  }
});

describe('a request the transport refuses before sending is never "may have been sent"', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // What undici throws for each, before a byte leaves: the guard refuses these names, and
  // should one ever slip through, the classification must still say "not sent".
  for (const [name, value] of [
    ['expect', '100-continue'],
    ['upgrade', 'h2c'],
    ['keep-alive', '5'],
  ] as const) {
    it(`undici's refusal of ${name} is classified as not sent`, async () => {
      const before = server.connections;
      const thrown = await fetch(url, { method: 'POST', body: 'x', headers: { [name]: value } }).catch(
        (e) => e,
      );
      const error = classifyException(thrown, 'POST /x', { userAborted: false, timedOut: false }, (t) => t);
      expect(error).toMatchObject({ sent: false });
      expect(server.connections).toBe(before);
    });
  }

  // What node:http throws from http.request, before it opens a socket, on the CLI's wire.
  for (const [what, change] of [
    ['a header value with a line break', { headers: { 'x-note': 'a\r\nx-injected: 1' } }],
    ['a header name with a space', { headers: { 'x note': '1' } }],
    ['a method that is no token', { method: 'GE T' }],
    ['a protocol other than http and https', { url: new URL('ftp://127.0.0.1/') }],
  ] as const) {
    it(`node:http's refusal of ${what} is classified as not sent`, async () => {
      const before = server.connections;
      const never = { aborted: false, reason: undefined, onAbort: () => {} };
      const request = { url: new URL(url), method: 'POST', headers: {}, body: 'x', cancellation: never };
      const thrown = await nodeHttpWire()({ ...request, ...change }).catch((e) => e);
      const error = classifyException(thrown, 'POST /x', { userAborted: false, timedOut: false }, (t) => t);
      expect(error).toMatchObject({ sent: false });
      expect(server.connections).toBe(before);
    });
  }
});

describe('API Call endpoints with surrounding whitespace are refused, not encoded', () => {
  let fx: TicketingFixture;
  beforeAll(async () => {
    fx = await ticketingFixture();
  });
  afterAll(() => fx.close());

  for (const endpoint of [
    ' //evil.example',
    '/api/v2/tickets.json ',
    '\u00a0/api/v2/tickets.json',
    '%20//evil.example',
  ]) {
    it(`refuses ${JSON.stringify(endpoint)} and sends nothing`, async () => {
      const before = fx.sandbox.server.requestLog.length;
      const error = await fx.invoke('ticketing.api_call', { method: 'GET', endpoint }).catch((e) => e);
      expect(error).toMatchObject({ code: 'input_invalid' });
      expect(fx.sandbox.server.requestLog.length).toBe(before);
    });
  }
  it('still accepts a space inside a query', () => {
    expect(guardEndpoint('/api/v2/search.json?query=a b')).toBe('/api/v2/search.json?query=a b');
  });
});

describe('Retry-After is seconds or an HTTP-date, nothing else', () => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 0);
  it.each([
    ['-1', undefined],
    ['1.5', 1500],
    ['0.25', 250],
    ['-0.5', undefined],
    ['7', 7000],
    ['2026', 2_026_000],
    ['12abc', undefined],
    ['1e3', undefined],
  ])('%s reads as %s ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
  it('an HTTP-date in each of the three forms of RFC 9110 §5.6.7', () => {
    expect(parseRetryAfter('Mon, 01 Jun 2026 12:00:09 GMT', now)).toBe(9000);
    expect(parseRetryAfter('Monday, 01-Jun-26 12:00:09 GMT', now)).toBe(9000);
    expect(parseRetryAfter('Mon Jun  1 12:00:09 2026', now)).toBe(9000);
  });
});
