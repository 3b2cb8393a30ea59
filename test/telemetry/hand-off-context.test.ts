import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execEvent } from '../../cli/listen/exec-event.js';
import { forwardEvent } from '../../cli/listen/forward-event.js';
import { ForwardTarget } from '../../cli/listen/forward-target.js';
import { otelApi } from '../../src/telemetry/index.js';
import { startTestOtelSdk, type TestOtelSdk } from '../support/otel-sdk.js';
import { startedEvent } from '../triggers/trigger-fixtures.js';

/**
 * The hand-off's two ways out carry the trace on: the forward's request has
 * the `traceparent` of its CLIENT span, an `--exec` command the `TRACEPARENT`
 * of its span; neither span says more of the target than its host and port.
 */

let sdk: TestOtelSdk;
let folder: string;
beforeAll(async () => {
  sdk = startTestOtelSdk();
  await otelApi();
  folder = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-handoff-'));
});
afterAll(async () => {
  await sdk.shutdown();
  await rm(folder, { recursive: true, force: true });
});

const traceparentOf = (span: { spanContext(): { traceId: string; spanId: string } }) =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('the hand-off carries the trace on', () => {
  it('a forward sends its CLIENT span as traceparent, and records the status, never the URL', async () => {
    const received: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      received.push(request.headers.traceparent as string | undefined);
      request.resume();
      request.on('end', () => response.writeHead(202).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const target = ForwardTarget.parse(`http://127.0.0.1:${port}/agent?key=forward-secret-key`);
      await forwardEvent(target, startedEvent);
    } finally {
      server.close();
    }
    const span = sdk.spans().find((each) => each.attributes['toolsteps.handoff'] === 'forward');
    expect(span?.kind).toBe(2);
    expect(received).toEqual([traceparentOf(span!)]);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 202,
      'server.address': '127.0.0.1',
      'server.port': port,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('forward-secret-key');
  });

  it('an --exec command finds its span in TRACEPARENT', async () => {
    sdk.reset();
    const file = path.join(folder, 'traceparent');
    await execEvent(`printf '%s' "$TRACEPARENT" > '${file}'`, startedEvent);
    const span = sdk.spans().find((each) => each.attributes['toolsteps.handoff'] === 'exec');
    expect(span?.name).toBe('exec');
    expect(await readFile(file, 'utf8')).toBe(traceparentOf(span!));
  });
});
