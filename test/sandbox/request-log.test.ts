import { afterEach, describe, expect, it } from 'vitest';
import { FaultInjector } from '../../sandbox/fault-injector.js';
import { startSandbox } from '../../sandbox/index.js';
import { json } from '../../sandbox/sandbox-http.js';
import { DEFAULT_REQUEST_LOG_LIMIT, SandboxServer } from '../../sandbox/sandbox-server.js';
import { definedOnly } from '../../src/values/defined-only.js';

const echo = { mount: 'echo', handle: async () => json(200, { ok: true }), reset: () => undefined };
const servers: { close(): Promise<void> }[] = [];

async function echoServer(requestLogLimit?: number) {
  const server = new SandboxServer({
    host: '127.0.0.1',
    port: 0,
    emulators: [echo],
    faults: new FaultInjector(),
    ...definedOnly({ requestLogLimit }),
  });
  servers.push(server);
  const url = await server.listen();
  const send = async (n: number) => {
    for (let i = 0; i < n; i += 1) {
      const response = await fetch(`${url}/echo/item/${i}`, { headers: { authorization: `Bearer t${i}` } });
      await response.body?.cancel();
    }
  };
  return { server, send };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('sandbox request log', () => {
  it('keeps only the latest entries, oldest dropped first, as a plain array', async () => {
    const { server, send } = await echoServer(3);
    await send(5);
    expect(server.requestLog.length).toBe(3);
    expect(server.requestLog.map((entry) => entry.path)).toEqual(['/item/2', '/item/3', '/item/4']);
    expect(server.requestLog.at(-1)?.headers.authorization).toBe('Bearer t4');
    expect(server.requestLog.filter((entry) => entry.mount === 'echo')).toHaveLength(3);
    expect(JSON.stringify(server.requestLog)).not.toContain('Bearer t0');
  });

  it('keeps 10,000 by default; the limit can be lowered (trimming at once) or set to none', async () => {
    const { server, send } = await echoServer();
    expect(server.requestLogLimit).toBe(DEFAULT_REQUEST_LOG_LIMIT);
    expect(DEFAULT_REQUEST_LOG_LIMIT).toBe(10_000);
    await send(4);
    expect(server.requestLog).toHaveLength(4);
    server.requestLogLimit = 1;
    expect(server.requestLog.map((entry) => entry.path)).toEqual(['/item/3']);
    server.requestLogLimit = 0;
    expect(server.requestLog).toHaveLength(0);
    await send(2);
    expect(server.requestLog).toHaveLength(0);
    expect(() => {
      server.requestLogLimit = -1;
    }).toThrow(RangeError);
  });

  it('the full sandbox logs every emulator through the same bounded log', async () => {
    const sandbox = await startSandbox();
    servers.push(sandbox);
    sandbox.server.requestLogLimit = 2;
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${sandbox.baseUrl('deployments')}/v9/projects`);
      await response.body?.cancel();
    }
    expect(sandbox.server.requestLog).toHaveLength(2);
  });
});
