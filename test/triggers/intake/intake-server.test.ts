import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/model/clock.js';
import type { TriggerEvent } from '../../../src/model/trigger-event.js';
import { MemoryDedupeStore } from '../../../src/store/memory/memory-dedupe-store.js';
import { MemorySubscriptionStore } from '../../../src/store/memory/memory-subscription-store.js';
import { createIntake } from '../../../src/triggers/intake/intake.js';
import { createIntakeServer } from '../../../src/triggers/intake/intake-server.js';
import { createRegistry } from '../../../steps/index.js';
import { deploymentEvent, signDeployments, subscriptionFor } from '../trigger-fixtures.js';

/** `createIntakeServer`, the server `toolsteps listen` runs, on the shared plumbing (src/server/). */

const DEPLOYS = 'sub_00000000000000b2';
let server: Server;
let base: string;
const started: TriggerEvent[] = [];

beforeAll(async () => {
  const subscriptions = new MemorySubscriptionStore();
  await subscriptions.put(subscriptionFor('deployments.deployment_started', { id: DEPLOYS }));
  const intake = createIntake({
    subscriptions,
    triggers: createRegistry(),
    dedupe: new MemoryDedupeStore(),
    handler: (event) => void started.push(event),
    unverifiedFloorMs: 0,
    // The fixtures' events happened then.
    clock: new ManualClock(Date.parse('2026-01-01T00:00:00Z')),
  });
  server = createIntakeServer(intake);
  // Listened on at once, as the CLI does: a request that came before the routes were in would wait for them.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The status line and body of a raw request, as the sender sees them. */
function raw(request: string): Promise<{ status: string; body: string }> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('close', () =>
      resolve({ status: text.split('\r\n')[0] ?? '', body: text.split('\r\n\r\n')[1] ?? '' }),
    );
  });
}

describe('the intake server', () => {
  it('starts a signed delivery, whatever its content type says, over the raw bytes as sent', async () => {
    const body = JSON.stringify(deploymentEvent());
    const response = await fetch(`${base}/hooks/${DEPLOYS}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain', ...signDeployments(body) },
    });
    expect([response.status, await response.json()]).toEqual([
      200,
      { status: 'started', event_id: started[0]?.event_id },
    ]);
    expect(started).toHaveLength(1);
  });

  it('answers every other path and method as the intake does: unknown hooks alike, 405 to a GET', async () => {
    const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', body: '{}' });
    for (const path of ['/hooks/sub_0000000000000099', '/elsewhere', '/hooks/', '/']) {
      const response = await post(path);
      expect([path, response.status, await response.json()]).toMatchObject([path, 401, {}]);
    }
    expect((await fetch(`${base}/hooks/${DEPLOYS}`)).status).toBe(405);
    const badTarget = await raw(
      'POST /hooks/%zz HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
    );
    expect(badTarget.status).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('answers 413 to a declared body over 256 KB without reading it, and closes the connection', async () => {
    const answer = await raw(
      `POST /hooks/${DEPLOYS} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${300 * 1024}\r\n\r\n{`,
    );
    expect(answer.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'payload_too_large' });
  });
});
