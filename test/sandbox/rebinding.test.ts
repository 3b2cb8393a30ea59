import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTROL_HEADER, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { ManualClock } from '../../src/model/clock.js';

/**
 * DNS rebinding: a page on evil.example whose name now resolves to
 * 127.0.0.1 is same-origin to the browser, so it may send any header and a
 * JSON body. What tells it apart is the Host it names (and the Origin).
 */

let sandbox: Sandbox;
let port: number;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: new ManualClock(Date.UTC(2026, 5, 1)) });
  port = Number(new URL(sandbox.url).port);
  token = sandbox.ticketing.issueTokens('acme').access_token;
});
afterAll(() => sandbox.close());
// A fault a refused request did plant (on code without the guard) must not fail the next test.
beforeEach(() => sandbox.faults.clear());

interface Answer {
  status: number;
  body: string;
}

/** A request with the Host (and any header) the test names: fetch would not let it set Host. */
function send(method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const control = { 'content-type': 'application/json', [CONTROL_HEADER]: '1' };
const fault = JSON.stringify({ target: 'ticketing', count: 1, action: { kind: 'status', status: 503 } });
const ticket = JSON.stringify({ ticket: { subject: 'Planted', comment: { body: 'by a page' } } });

describe('the sandbox answers only loopback Host names', () => {
  it('refuses control requests for a rebound name with 403: no fault, no clock move, no reset', async () => {
    const before = sandbox.ticketing.account('acme').tickets.size;
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1.evil.example']) {
      const headers = { ...control, host };
      const added = await send('POST', '/_sandbox/faults', headers, fault);
      expect(added.status, host).toBe(403);
      expect(JSON.parse(added.body)).toMatchObject({ error: 'not_loopback' });
      expect((await send('POST', '/_sandbox/clock', headers, '{"advance_ms":60000}')).status).toBe(403);
      expect((await send('POST', '/_sandbox/reset', headers, '{}')).status).toBe(403);
      expect((await send('GET', '/_sandbox/health', { host })).status).toBe(403);
    }
    expect(sandbox.faults.take('ticketing', 'GET', '/x')).toBeUndefined();
    expect(sandbox.ticketing.account('acme').tickets.size).toBe(before);
    const clock = await send(
      'POST',
      '/_sandbox/clock',
      { ...control, host: `127.0.0.1:${port}` },
      '{"advance_ms":0}',
    );
    expect(JSON.parse(clock.body)).toEqual({ ok: true, now: Date.UTC(2026, 5, 1) });
  });

  it('refuses a provider call for a rebound name before the emulator sees it, even with a valid token', async () => {
    const before = sandbox.ticketing.account('acme').tickets.size;
    const logged = sandbox.server.requestLog.length;
    const headers = {
      host: `evil.example:${port}`,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const created = await send('POST', '/ticketing/acme/api/v2/tickets.json', headers, ticket);
    expect(created.status).toBe(403);
    expect(sandbox.ticketing.account('acme').tickets.size).toBe(before);
    expect(sandbox.server.requestLog.length).toBe(logged);
  });

  it('refuses a loopback Host named by a page on another origin', async () => {
    const headers = { ...control, host: `127.0.0.1:${port}`, origin: 'https://evil.example' };
    expect((await send('POST', '/_sandbox/faults', headers, fault)).status).toBe(403);
    expect(sandbox.faults.take('ticketing', 'GET', '/x')).toBeUndefined();
  });

  it('answers 127.0.0.1, localhost and [::1], with or without a port', async () => {
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'LOCALHOST',
      `[::1]:${port}`,
    ]) {
      expect((await send('GET', '/_sandbox/health', { host })).status, host).toBe(200);
    }
    const headers = {
      host: `localhost:${port}`,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    };
    const created = await send('POST', '/ticketing/acme/api/v2/tickets.json', headers, ticket);
    expect(created.status).toBe(201);
  });
});
