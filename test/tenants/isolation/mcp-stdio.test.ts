import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import { CHILD_START_MS, callText, connectStdio, errorOf, useMcpWorld } from '../../agents/mcp/mcp-child.js';
import { A, A_ONLY, A_TOKEN, B, B_TOKEN, countingProvider, deskConnection, shapeOf } from './two-tenants.js';

describe('MCP over stdio: `toolsteps mcp --tenant b` serves b alone', () => {
  const world = useMcpWorld('toolsteps-isolation-mcp');
  let client: Client;
  let provider: Awaited<ReturnType<typeof countingProvider>>;

  beforeAll(async () => {
    provider = await countingProvider();
    const stores = new FileTenantStores(world.home);
    await stores.forTenant(A).connections.put(deskConnection(A_ONLY, A_TOKEN, provider.url));
    await stores.forTenant(A).connections.put(deskConnection('support', A_TOKEN, provider.url));
    await stores.forTenant(B).connections.put(deskConnection('support', B_TOKEN, provider.url));
    await stores.forTenant(B).connections.put(deskConnection('b-desk', B_TOKEN, provider.url));
    ({ client } = await connectStdio(world, ['--tenant', B]));
  }, CHILD_START_MS);

  afterAll(async () => {
    await client?.close();
    await provider?.close();
  });

  it("offers only b's connections, refuses a's by id as an unknown one, and sends b's token only", async () => {
    const { tools } = await client.listTools();
    const listed = JSON.stringify(tools);
    expect(listed).toContain('b-desk');
    // Neither a's connection nor the default tenant's (the world's own) is offered.
    expect(listed).not.toContain(A_ONLY);
    expect(listed).not.toContain(world.connection.id);
    const call = (connection: string) =>
      callText(client, 'ticketing__api_call', {
        connection,
        method: 'GET',
        endpoint: '/api/v2/tickets.json',
      });
    provider.seen.length = 0;
    const foreign = await call(A_ONLY);
    const nowhere = await call('no-such-desk');
    expect(foreign.isError).toBe(true);
    expect(errorOf(foreign)).toMatchObject({ code: 'not_found', fields: [{ path: 'connection' }] });
    expect(shapeOf(errorOf(foreign), A_ONLY)).toEqual(shapeOf(errorOf(nowhere), 'no-such-desk'));
    expect(provider.seen).toEqual([]);
    const mine = await call('support');
    expect(mine.isError).toBeFalsy();
    expect(provider.seen).toHaveLength(1);
    expect(provider.seen[0]).toContain(`Bearer ${B_TOKEN}`);
    expect(JSON.stringify([foreign, nowhere, mine])).not.toContain(A_TOKEN);
  });
});
