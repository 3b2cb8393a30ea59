import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FileConnectionStore } from '../../src/store/files/file-connection-store.js';
import { DEFAULT_INTAKE_SERVER_LIMITS } from '../../src/triggers/intake/intake-server.js';
import { acmeConnection } from '../support/acme-connection.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { freePort, untilListening } from '../support/ports.js';
import { signTicketing, TICKETING_SECRET, ticketStatusEvent } from '../triggers/trigger-fixtures.js';
import { cli, createManualSubscription, useCliHome } from './cli-harness.js';

/**
 * A flood of slow deliveries against `toolsteps listen` as users run it (the
 * bundle, in a child process): 2,000 connections that each send headers and
 * 250 KB of a 256 KB body, then stall. On loopback, bounded in count and
 * time; every socket is closed by the end of each test.
 *
 * Peak RSS of the child under this file's flood (Linux, Node 20; about
 * 78 MB idle): about 580 MB when the intake read every body before looking
 * up its path and took every connection; about 110 to 120 MB with the
 * default limits (128 connections); about 165 MB with the cap lifted
 * (--max-connections 5000), where only the path lookup keeps bodies out.
 * The bounds below leave room for a busier machine, well under the first.
 */

const FLOOD = 2_000;
const DECLARED = 256 * 1024;
const SENT = Buffer.alloc(250 * 1024, 'a');
const UNKNOWN = 'sub_ffffffffffffffffffff';

const home = useCliHome('toolsteps-listen-flood-', { scope: 'all' });
let main: string;
let subscriptionUrl: string;
let port: number;

beforeAll(async () => {
  ({ main } = await bundleForChild('toolsteps-listen-flood'));
  await new FileConnectionStore(home()).put(acmeConnection('desk', 'desk-token-0123456789'));
  port = await freePort();
  const created = await createManualSubscription(port, TICKETING_SECRET, '--json');
  expect(created.code).toBe(0);
  subscriptionUrl = JSON.parse(created.out).url;
}, 180_000);

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
});

async function startListen(...flags: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main, 'listen', '--port', String(port), '--json', ...flags], {
    env: { ...process.env, TOOLSTEPS_HOME: home() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout?.resume();
  child.stderr?.resume();
  await untilListening(port);
  return child;
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Flood {
  /** Sockets the server has closed so far. */
  closed(): number;
  /** Whether every socket's 250 KB has left this process, or its socket is closed. */
  sent(): boolean;
  /** What the server answered on each closed socket, by status line. */
  answers: Map<string, number>;
}

/** Opens `count` slow deliveries to `/hooks/<id>`, a hundred at a time so the accept queue keeps up. */
async function flood(count: number, id: string): Promise<Flood> {
  let closed = 0;
  let settled = 0;
  const answers = new Map<string, number>();
  for (let index = 0; index < count; index += 1) {
    const socket = connect(port, '127.0.0.1');
    let first = '';
    socket.on('connect', () => {
      socket.write(
        `POST /hooks/${id} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${DECLARED}\r\n\r\n`,
      );
      socket.write(SENT, () => {
        settled += 1;
      });
    });
    socket.on('data', (chunk: Buffer) => {
      first ||= chunk.toString('latin1').split('\r\n')[0] ?? '';
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed += 1;
      answers.set(first || '(none)', (answers.get(first || '(none)') ?? 0) + 1);
    });
    sockets.push(socket);
    if (index % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { closed: () => closed, sent: () => settled + closed >= count, answers };
}

/** The highest RSS of `child` seen every 50 ms until `done` holds (and a second more), or for `ms` at most. */
async function peakRss(child: ChildProcess, ms: number, done: () => boolean): Promise<number> {
  let peak = rssMb(child);
  const until = Date.now() + ms;
  let doneAt = Number.POSITIVE_INFINITY;
  while (Date.now() < Math.min(until, doneAt + 1_000)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    peak = Math.max(peak, rssMb(child));
    if (doneAt === Number.POSITIVE_INFINITY && done()) doneAt = Date.now();
  }
  return peak;
}

async function deliverSigned(): Promise<number> {
  const body = JSON.stringify(ticketStatusEvent({ id: `evt-${Date.now()}`, time: new Date().toISOString() }));
  const response = await fetch(subscriptionUrl, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...signTicketing(body, new Date().toISOString()) },
  });
  return response.status;
}

it('lists the server limits with the library defaults', async () => {
  const help = (await cli('listen', '--help')).out.replace(/\s+/g, ' ');
  expect(help).toContain(`(default: "${DEFAULT_INTAKE_SERVER_LIMITS.maxConnections}")`);
  expect(help).toContain(`its headers (default: "${DEFAULT_INTAKE_SERVER_LIMITS.headersTimeoutMs / 1000}")`);
  expect(help).toContain(`and closed (default: "${DEFAULT_INTAKE_SERVER_LIMITS.requestTimeoutMs / 1000}")`);
});

describe.skipIf(process.platform !== 'linux')('listen under a flood of slow deliveries', () => {
  it('holds RSS under 200 MB with 2,000 slow connections to an unknown id, at the default limits', async () => {
    const child = await startListen();
    const slow = await flood(FLOOD, UNKNOWN);
    const peak = await peakRss(child, 15_000, slow.sent);
    expect(peak).toBeLessThan(200);
    // The flood held every connection it was let have; once it lets go, deliveries get in again.
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await deliverSigned()).toBe(200);
  }, 60_000);

  it('holds no body of an unknown id even with the cap lifted: RSS under 300 MB', async () => {
    const child = await startListen('--max-connections', '5000');
    const slow = await flood(FLOOD, UNKNOWN);
    const lifted = await peakRss(child, 15_000, slow.sent);
    expect(lifted).toBeLessThan(300);
  }, 60_000);

  it('closes every slow sender after --request-timeout with 408, by itself, and still takes a delivery', async () => {
    const child = await startListen(
      '--max-connections',
      '5000',
      '--request-timeout',
      '2',
      '--headers-timeout',
      '1',
    );
    const slow = await flood(500, UNKNOWN);
    const stalledHeaders = Array.from({ length: 100 }, () => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('POST /hooks/x HTTP/1.1\r\nhost: 127.0.0.1\r\n'),
      );
      socket.on('error', () => undefined);
      socket.resume();
      sockets.push(socket);
      return socket;
    });
    await peakRss(
      child,
      10_000,
      () => slow.closed() === 500 && stalledHeaders.every((socket) => socket.destroyed),
    );
    expect(slow.closed()).toBe(500);
    expect(Object.fromEntries(slow.answers)).toEqual({ 'HTTP/1.1 408 Request Timeout': 500 });
    expect(stalledHeaders.every((socket) => socket.destroyed)).toBe(true);
    expect(await deliverSigned()).toBe(200);
  }, 60_000);
});
