import { afterEach, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../sandbox/fault-injector.js';
import { CONTROL_HEADER, type Sandbox, startSandbox } from '../../sandbox/index.js';
import { SandboxServer } from '../../sandbox/sandbox-server.js';
import { ManualClock } from '../../src/model/clock.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ clock: new ManualClock(Date.UTC(2026, 5, 1)) });
  opened.push(started);
  return started;
}

/** A POST to one of the sandbox's control endpoints, with the headers under test. */
function post(
  box: Sandbox,
  control: string,
  headers: Record<string, string>,
  body: string,
): Promise<Response> {
  return fetch(`${box.url}/_sandbox/${control}`, { method: 'POST', headers, body });
}

const rule = { target: 'ticketing', count: 1, action: { kind: 'status', status: 503 } };

describe('sandbox control endpoints', () => {
  it('refuse a cross-origin form post: no fault is added', async () => {
    const box = await sandbox();
    const response = await post(
      box,
      'faults',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'count=1&target=ticketing',
    );
    expect(response.status).toBe(403);
    expect(box.faults.take('ticketing', 'GET', '/x')).toBeUndefined();
  });

  it('refuse text/plain JSON and JSON without the control header', async () => {
    const box = await sandbox();
    const plain = await post(
      box,
      'faults',
      { 'content-type': 'text/plain', [CONTROL_HEADER]: '1' },
      JSON.stringify(rule),
    );
    expect(plain.status).toBe(415);
    const headerless = await post(box, 'reset', { 'content-type': 'application/json' }, '{}');
    expect(headerless.status).toBe(403);
    expect(box.faults.take('ticketing', 'GET', '/x')).toBeUndefined();
  });

  it('accept JSON with the header, and validate the rule', async () => {
    const box = await sandbox();
    const headers = { 'content-type': 'application/json', [CONTROL_HEADER]: '1' };
    const bad = await post(box, 'faults', headers, JSON.stringify({ ...rule, count: 0 }));
    expect(bad.status).toBe(400);
    const good = await post(box, 'faults', headers, JSON.stringify(rule));
    expect(good.status).toBe(201);
    expect(box.faults.take('ticketing', 'GET', '/x')).toMatchObject({ kind: 'status', status: 503 });
    const clock = await post(box, 'clock', headers, JSON.stringify({ advance_ms: 60_000 }));
    expect(await clock.json()).toEqual({ ok: true, now: Date.UTC(2026, 5, 1, 0, 1) });
    const webhookFault = await post(
      box,
      'webhook-faults',
      headers,
      JSON.stringify({ kind: 'duplicate', target: 'ticketing', count: 1 }),
    );
    expect(webhookFault.status).toBe(201);
    expect(box.webhookFaults.take('duplicate', 'ticketing')).toMatchObject({ kind: 'duplicate' });
    const health = await fetch(`${box.url}/_sandbox/health`);
    expect(health.status).toBe(200);
  });

  it("answer a handler's exception with 500 and no exception text", async () => {
    const failing = {
      mount: 'boom',
      handle: async () => {
        throw new Error('token sk-live-0123456789 leaked at /srv/sandbox/internal.ts:42');
      },
      reset: () => undefined,
    };
    const server = new SandboxServer({
      host: '127.0.0.1',
      port: 0,
      emulators: [failing],
      faults: new FaultInjector(),
    });
    opened.push(server);
    const url = await server.listen();
    const response = await fetch(`${url}/boom/anything`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('sk-live');
    expect(text).not.toContain('internal.ts');
    expect(JSON.parse(text)).toEqual({
      error: 'sandbox_failure',
      message: 'The sandbox failed while handling this request.',
    });
    expect(String(server.failures[0])).toContain('sk-live-0123456789');
  });
});
