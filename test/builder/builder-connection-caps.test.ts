import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, openBuilderWorld, PAGE_ORIGIN } from './builder-fixture.js';

/**
 * Callers who never finish a request, without any token, against the
 * builder server (`serve`, `ui`): bounded in number, per address and in
 * all, and in time, while a tenant's request, a webhook delivery and an
 * OAuth callback are still answered. Small caps keep the test quick; the
 * flood runs in its own process, on loopback, and stops by itself.
 */

/** Small caps, and timeouts long enough that only the caps can explain a connection closed within a test. */
const LIMITS = {
  maxConnections: 24,
  maxConnectionsPerAddress: 12,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
};
/** Short timeouts, for the test of the timeouts. */
const QUICK = { headersTimeoutMs: 500, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 500 };

let world: BuilderWorld;
let quick: BuilderWorld;
let port: number;
const sockets: net.Socket[] = [];
const children: ChildProcess[] = [];
beforeAll(async () => {
  [world, quick] = await Promise.all([
    openBuilderWorld({ connectionLimits: LIMITS }),
    openBuilderWorld({ connectionLimits: QUICK }),
  ]);
  port = Number(new URL(world.server.url).port);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([world?.close(), quick?.close()]);
});

/** A connection from `source` that sends `head` and then nothing; resolves with what the server sent once it closes. */
function stall(head: string, source = '127.0.0.1', to = port) {
  const socket = net.connect({ port: to, host: '127.0.0.1', localAddress: source });
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  socket.on('connect', () => socket.write(head));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms)),
  ]);

/** One request on a connection of its own (no pool), answered with its status and how long it took. */
function timedRequest(method: string, path: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { ...headers, connection: 'close' } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    request.setTimeout(5_000, () => request.destroy(new Error(`${method} ${path}: no answer in 5 s`)));
    request.on('error', reject);
    request.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('the builder server against connections that never finish a request', () => {
  it('closes a caller without a token whose headers never end, within the headers timeout', async () => {
    const stalled = stall(
      'GET /v1/connections HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: aaaa',
      '127.0.0.1',
      Number(new URL(quick.server.url).port),
    );
    // Node's own default waits a minute for headers; the server's old 10 s were checked every 30 s.
    expect(await within(stalled.closed, 3_000)).toMatch(/^HTTP\/1\.1 408|^$/);
  }, 10_000);

  it('holds no more than the per-address limit from one address, and still answers another', async () => {
    const flood = Array.from({ length: 40 }, () => stall('', '127.0.0.2'));
    // The server closes each connection past the limit as it arrives; the client sees it a moment later.
    const held = () => flood.filter((stalled) => !stalled.socket.destroyed).length;
    for (let waited = 0; held() > LIMITS.maxConnectionsPerAddress && waited < 3_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(held()).toBeGreaterThan(0);
    expect(held()).toBeLessThanOrEqual(LIMITS.maxConnectionsPerAddress);
    const answer = await timedRequest('GET', '/v1/connections', {
      authorization: `Bearer ${world.token('globex')}`,
      origin: PAGE_ORIGIN,
    });
    expect(answer.status).toBe(200);
    for (const stalled of flood) stalled.socket.destroy();
  }, 10_000);

  it('under a flood of idle and half-sent requests, from the tenants’ own address too, a tenant, a webhook delivery and an OAuth callback are answered within 1 s', async () => {
    const script = fileURLToPath(new URL('./idle-flood.mjs', import.meta.url));
    // 60 connections held per address, from loopback (as the tests and a local proxy are) and another address.
    // It floods until its stdin closes, 15 s at most.
    const child = spawn(process.execPath, [script, String(port), '15000', '60', '127.0.0.1', '127.0.0.3'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    let report = '';
    const flooding = new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk) => {
        report += chunk;
        if (report.startsWith('flooding\n')) resolve();
      });
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const token = world.token('globex');
    const probes: { what: string; status: number; ms: number }[] = [];
    // Round 0, before the flood, is not kept: the other tenant has worked before, as one at work has.
    for (let round = 0; round <= 4; round += 1) {
      if (round === 1) await within(flooding, 5_000);
      if (round === 1) probes.length = 0;
      const api = await timedRequest('GET', '/v1/connections', {
        authorization: `Bearer ${token}`,
        origin: PAGE_ORIGIN,
      });
      const hook = await timedRequest('POST', '/hooks/globex/sub_ffffffffffffffffffff', {
        'content-type': 'application/json',
      });
      const callback = await timedRequest('GET', '/v1/oauth/callback?state=nobody&code=x');
      probes.push({ what: 'api', ...api }, { what: 'hook', ...hook }, { what: 'callback', ...callback });
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const floodStillOn = child.exitCode === null;
    child.stdin?.end();
    await within(exited, 10_000);
    const flood = JSON.parse(report.split('\n').filter(Boolean).at(-1) ?? '{}') as {
      opened: number;
      closedByServer: number;
      held: Record<string, number>;
    };
    const slowest = Math.max(...probes.map((probe) => probe.ms));
    console.log(
      `during the flood (${flood.opened} connections opened, ${flood.closedByServer} closed by the server): ` +
        `slowest answer ${slowest.toFixed(0)} ms; ${probes.map((p) => `${p.what} ${p.status} ${p.ms.toFixed(0)} ms`).join(', ')}`,
    );
    expect(probes.filter((probe) => probe.what === 'api').map((probe) => probe.status)).toEqual([
      200, 200, 200, 200,
    ]);
    for (const probe of probes) expect(probe.status).toBeLessThan(500);
    expect(floodStillOn).toBe(true);
    expect(slowest).toBeLessThan(1_000);
    // What the server still held of the flood once it stopped: within the caps.
    const held = Object.values(flood.held);
    for (const count of held) expect(count).toBeLessThanOrEqual(LIMITS.maxConnectionsPerAddress);
    expect(held.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(LIMITS.maxConnections);
    expect(flood.closedByServer).toBeGreaterThan(100);
  }, 20_000);
});
