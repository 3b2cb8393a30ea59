import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSubscriptionStore } from '../../src/store/files/file-subscription-store.js';
import { MemoryDedupeStore } from '../../src/store/memory/memory-dedupe-store.js';
import { createIntake } from '../../src/triggers/intake/intake.js';
import type { IntakeRefusal } from '../../src/triggers/intake/intake-refusal.js';
import { toNodeListener } from '../../src/triggers/intake/node-listener.js';
import { createRegistry } from '../../steps/index.js';
import { signDeployments, subscriptionFor } from './trigger-fixtures.js';

/**
 * A caller probing for subscription ids: does `/hooks/<id>` answer an id
 * that exists differently from one that does not? Status, body, headers,
 * and when the answer comes must all be the same.
 */

const KNOWN = 'sub_00000000000000c3';
const NO_SECRET = 'sub_00000000000000d4';
const GONE_TRIGGER = 'sub_00000000000000e5';
const UNKNOWN = 'sub_0000000000000099';

let home: string;
let server: Server;
let port: number;
const refused: IntakeRefusal[] = [];

beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-alike-'));
  // The file store `listen` uses: a lookup that finds a record reads files, one that does not finds none.
  const subscriptions = new FileSubscriptionStore(home);
  await subscriptions.put(subscriptionFor('deployments.deployment_started', { id: KNOWN }));
  await subscriptions.put(
    subscriptionFor('deployments.deployment_started', { id: NO_SECRET, secret: undefined }),
  );
  await subscriptions.put(subscriptionFor('deployments.deployment_gone', { id: GONE_TRIGGER }));
  const intake = createIntake({
    subscriptions,
    triggers: createRegistry(),
    dedupe: new MemoryDedupeStore(),
    handler: () => undefined,
    onRefused: (refusal) => refused.push(refusal),
  });
  server = createServer(toNodeListener(intake));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

interface Answer {
  /** The status line and headers without Date, then the body: everything the caller sees. */
  text: string;
  /** From the last byte of the body sent to the first byte of the answer, in ms. */
  ms: number;
  /** From the first byte of the request sent to the first byte of the answer, in ms. */
  total: number;
  /** Whether an answer came before the body was whole. */
  early: boolean;
}

/**
 * A raw HTTP/1.1 POST that sends its headers and half the body, waits
 * `pauseMs`, then sends the rest: an answer in the pause means the server
 * answered without reading what it would have to verify.
 */
function deliver(id: string, body: Buffer, headers: Record<string, string>, pauseMs = 0): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const head = Object.entries({ ...headers, 'content-length': String(body.length), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    let received = '';
    let sentAt = Number.POSITIVE_INFINITY;
    let firstByte = 0;
    let whole = false;
    socket.on('data', (chunk: Buffer) => {
      if (!firstByte) firstByte = performance.now();
      received += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({
        text: received.replace(/^date: .*\r\n/im, ''),
        ms: firstByte - sentAt,
        total: firstByte - startedAt,
        early: !whole,
      }),
    );
    const startedAt = performance.now();
    socket.write(`POST /hooks/${id} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head}\r\n`);
    socket.write(body.subarray(0, body.length / 2));
    setTimeout(() => {
      if (socket.destroyed || firstByte) return;
      whole = true;
      sentAt = performance.now();
      // Not end(): a sender that half-closes before the answer is one Node's server drops.
      socket.write(body.subarray(body.length / 2));
    }, pauseMs);
  });
}

const body = Buffer.from(
  JSON.stringify({ type: 'deployment.created', id: 'evt_probe', pad: 'x'.repeat(60_000) }),
);
const badlySigned = { 'content-type': 'application/json', ...signDeployments(body, 'not-the-secret-0123') };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('unknown and known hook ids answer alike', () => {
  it('one status, body and header set for an unknown id, a bad signature, no secret, and a trigger not served', async () => {
    refused.length = 0;
    const answers = [
      await deliver(UNKNOWN, body, badlySigned),
      await deliver(KNOWN, body, badlySigned),
      await deliver(KNOWN, body, { 'content-type': 'application/json' }),
      await deliver(NO_SECRET, body, badlySigned),
      await deliver(GONE_TRIGGER, body, badlySigned),
      await deliver('not-an-id', body, badlySigned),
    ];
    expect(answers[0]?.text).toMatch(/^HTTP\/1\.1 401 /);
    for (const answer of answers) expect(answer.text).toBe(answers[0]?.text);
    // The operator's log still tells them apart.
    expect(refused.map((refusal) => refusal.code)).toEqual([
      'unknown_subscription',
      'bad_signature',
      'bad_signature',
      'no_signing_secret',
      'trigger_unavailable',
      'unknown_subscription',
    ]);
  });

  it('answers neither before the body is whole: the unknown id is read to its end like the known one', async () => {
    const unknown = await deliver(UNKNOWN, body, badlySigned, 300);
    const known = await deliver(KNOWN, body, badlySigned, 300);
    expect(known.early).toBe(false);
    expect(unknown.early).toBe(false);
  });

  it('takes no time a caller could tell apart: both answered on the floor, medians within 1 ms', async () => {
    const unknown: number[] = [];
    const known: number[] = [];
    const totals: number[] = [];
    for (let round = 0; round < 150; round += 1) {
      const probes = [await deliver(UNKNOWN, body, badlySigned), await deliver(KNOWN, body, badlySigned)];
      unknown.push(probes[0]?.ms ?? Number.NaN);
      known.push(probes[1]?.ms ?? Number.NaN);
      totals.push(...probes.map((probe) => probe.total));
    }
    // Load only ever makes an answer later: neither comes before the floor, 20 ms from arrival
    // (read in whole milliseconds, so up to one sooner).
    expect(Math.min(...totals)).toBeGreaterThan(19);
    const gap = Math.abs(median(unknown) - median(known));
    expect(
      gap,
      `unknown ${median(unknown).toFixed(3)} ms, known ${median(known).toFixed(3)} ms`,
    ).toBeLessThan(1);
  }, 60_000);
});
