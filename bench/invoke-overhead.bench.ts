/**
 * What the invocation pipeline (input validation, connection binding, rate
 * gate, retries wrapper, output validation, variable mapping) costs on top
 * of the bare request it sends. Both cases send the same GET to the same
 * in-process sandbox over loopback, in the same run, so the ratio vitest
 * prints is the pipeline's overhead and not the machine's speed.
 *
 *   npm run bench
 */
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { type Sandbox, startSandbox } from '../sandbox/index.js';
import { MemoryConnectionStore } from '../src/connection/memory-store.js';
import { sharedDispatcher } from '../src/http/agent.js';
import { Runtime } from '../src/runtime.js';
import { createRegistry } from '../steps/index.js';

let sandbox: Sandbox;
let runtime: Runtime;
let token = '';
let url = '';
const registry = createRegistry();

beforeAll(async () => {
  sandbox = await startSandbox({ ticketing: { requestsPerMinute: 10_000_000 } });
  const tokens = sandbox.ticketing.issueTokens('acme');
  token = tokens.access_token;
  url = `${sandbox.baseUrl('ticketing', 'acme')}/api/v2/tickets.json?page%5Bsize%5D=25`;
  const now = Date.now();
  runtime = new Runtime({
    store: new MemoryConnectionStore([
      {
        id: 'bench',
        integration: 'ticketing',
        kind: 'oauth2',
        fields: { subdomain: 'acme', baseUrl: sandbox.baseUrl('ticketing', 'acme') },
        secrets: { accessToken: token },
        expiresAt: now + 3600_000,
        createdAt: now,
        updatedAt: now,
      },
    ]),
  });
});

afterAll(async () => {
  await sandbox.close();
});

describe('list 25 tickets from the sandbox', () => {
  bench('baseline: bare fetch + JSON.parse', async () => {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      dispatcher: sharedDispatcher(),
    } as RequestInit);
    await response.json();
  });

  bench('toolsteps: invoke ticketing.list_tickets', async () => {
    await registry.invoke(runtime, 'ticketing.list_tickets', { connection: 'bench', input: { limit: 25 } });
  });
});
