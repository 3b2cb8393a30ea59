import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHandler, sinkSettings } from '../../../cli/listen/event-handler.js';
import { forwardEvent } from '../../../cli/listen/forward-event.js';
import { ForwardTarget } from '../../../cli/listen/forward-target.js';
import { freePort } from '../../support/ports.js';
import { startedEvent } from '../../triggers/trigger-fixtures.js';

const SECRET = 's3cret';
const event = startedEvent;

/** Every way an error travels: message, stack, JSON (the CLI's --json, BullMQ's failedReason), inspect. */
function everyView(error: unknown): string {
  const views = [String(error), (error as Error).stack, JSON.stringify(error), inspect(error, { depth: 5 })];
  return views.join('\n');
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    if (request.url?.startsWith('/slow')) return; // never answers
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a forward target is a secret', () => {
  it('shows only its origin however it is turned into text', () => {
    const target = ForwardTarget.parse(
      `https://user:pw-${SECRET}@agents.example.com:8443/hooks/${SECRET}?token=${SECRET}`,
    );
    expect(target.url()).toContain(SECRET);
    for (const view of [String(target), `${target}`, JSON.stringify({ target }), inspect({ target })]) {
      expect(view).toContain('https://agents.example.com:8443/…');
      expect(view).not.toContain(SECRET);
      expect(view).not.toContain('pw-');
    }
  });

  it('refuses a URL that is not http(s) without quoting it', () => {
    for (const bad of [`ftp://example.com/?token=${SECRET}`, `not a url ${SECRET}`]) {
      let thrown: unknown;
      try {
        ForwardTarget.parse(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'input_invalid' });
      expect(everyView(thrown)).not.toContain(SECRET);
    }
  });

  it('keeps the URL out of every error a failed forward raises: refused, non-2xx, past its deadline', async () => {
    const refused = ForwardTarget.parse(`http://127.0.0.1:${await freePort()}/run?token=${SECRET}`);
    const failing = ForwardTarget.parse(`${base}/run?token=${SECRET}`);
    const slow = ForwardTarget.parse(`${base}/slow?token=${SECRET}`);
    const errors = await Promise.all([
      forwardEvent(refused, event).catch((error: unknown) => error),
      forwardEvent(failing, event).catch((error: unknown) => error),
      forwardEvent(slow, event, { deadlineMs: 200 }).catch((error: unknown) => error),
    ]);
    expect(errors.map((error) => (error as { code: string }).code)).toEqual([
      'network_error',
      'network_error',
      'timeout',
    ]);
    for (const error of errors) {
      expect(everyView(error)).toContain('http://127.0.0.1:');
      expect(everyView(error)).not.toContain(SECRET);
    }
  });

  it('the handler built from the options redacts whatever fails in it', async () => {
    const settings = sinkSettings({ forwardTo: `${base}/run?token=${SECRET}`, exec: `exit 7 # ${SECRET}` });
    const handle = eventHandler(settings);
    const failed = await handle(event).catch((error: unknown) => error);
    expect(everyView(failed)).not.toContain(SECRET);
  });
});
