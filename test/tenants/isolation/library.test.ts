import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCoordinator } from '../../../src/coordination/local-coordinator.js';
import { DEFAULT_TENANT } from '../../../src/model/tenant-id.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { FileTenantStores } from '../../../src/store/files/file-tenant-stores.js';
import { MemoryTenantStores } from '../../../src/store/memory/memory-tenant-stores.js';
import type { TenantStores } from '../../../src/store/tenant-stores.js';
import { createRegistry } from '../../../steps/index.js';
import {
  A,
  A_ONLY,
  A_SUBSCRIPTION,
  A_TOKEN,
  B,
  B_TOKEN,
  countingProvider,
  deskConnection,
  seedTwoTenants,
  shapeOf,
} from './two-tenants.js';

const registry = createRegistry();
const CALL = 'ticketing.api_call';
const INPUT = { method: 'GET', endpoint: '/api/v2/tickets.json' } as const;
let provider: Awaited<ReturnType<typeof countingProvider>>;
let home: string;

beforeAll(async () => {
  provider = await countingProvider();
  home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-isolation-library-'));
});
afterAll(async () => {
  await provider.close();
  await rm(home, { recursive: true, force: true });
});

const backends: [string, () => TenantStores][] = [
  ['memory', () => new MemoryTenantStores()],
  ['file', () => new FileTenantStores(path.join(home, String(Math.random()).slice(2)))],
];

describe.each(backends)('library: tenant b cannot reach tenant a (%s store)', (_name, make) => {
  let stores: TenantStores;
  beforeAll(async () => {
    stores = make();
    await seedTwoTenants(stores, provider.url, { subscription: true });
  });

  it("refuses a's connection by id exactly as an id that exists nowhere, sending nothing", async () => {
    provider.seen.length = 0;
    const runtime = new Runtime({ tenant: B, tenantStores: stores, transport: 'fetch' });
    expect(runtime.tenant).toBe(B);
    const refuse = (connection: string) =>
      registry.invoke(runtime, CALL, { connection, input: INPUT }).catch((error: unknown) => error);
    const foreign = await refuse(A_ONLY);
    const nowhere = await refuse('no-such-desk');
    expect(shapeOf(foreign, A_ONLY)).toEqual(shapeOf(nowhere, 'no-such-desk'));
    expect(provider.seen).toEqual([]);
    expect(JSON.stringify(foreign)).not.toContain(A_TOKEN);
  });

  it("a's connection from b is not_found on every library path, byte for byte the refusal once nobody holds the id", async () => {
    provider.seen.length = 0;
    const runtime = new Runtime({ tenant: B, tenantStores: stores, transport: 'fetch' });
    const caught = (work: Promise<unknown>) =>
      work.then(
        () => undefined,
        (error: unknown) => error,
      );
    // Each path that reads a connection by id: a step, a field's options, a per-account schema.
    const refusals = async () => [
      await caught(registry.invoke(runtime, CALL, { connection: A_ONLY, input: INPUT })),
      await caught(registry.options(runtime, 'ticketing.create_ticket', 'assignee', { connection: A_ONLY })),
      await caught(registry.describe('ticketing.create_ticket', { runtime, connection: A_ONLY })),
    ];
    const foreign = await refusals();
    const a = stores.forTenant(A);
    const kept = (await a.connections.get(A_ONLY))!;
    await a.connections.remove(A_ONLY);
    const nowhere = await refusals();
    await a.connections.put(kept);
    for (const [index, error] of foreign.entries()) {
      expect(error, `path ${index}`).toMatchObject({
        code: 'not_found',
        sent: false,
        message: `No connection with id "${A_ONLY}". Add one with: toolsteps connections add.`,
        fields: [{ path: 'connection', message: 'unknown connection id' }],
      });
      expect((error as { status?: number }).status).toBeUndefined();
      const json = (value: unknown) => JSON.stringify((value as { toJSON(): unknown }).toJSON());
      expect(json(error)).toBe(json(nowhere[index]));
    }
    expect(provider.seen).toEqual([]);
  });

  it('the same id in two tenants is two records: each runtime sends its own token', async () => {
    provider.seen.length = 0;
    for (const [tenant, token] of [
      [A, A_TOKEN],
      [B, B_TOKEN],
    ] as const) {
      const runtime = new Runtime({ tenant, tenantStores: stores, transport: 'fetch' });
      await registry.invoke(runtime, CALL, { connection: 'support', input: INPUT });
      expect(provider.seen.at(-1)).toContain(`Bearer ${token}`);
    }
    expect(provider.seen).toHaveLength(2);
  });

  it("lists only its own connections and subscriptions; a's subscription is not found by id", async () => {
    const b = stores.forTenant(B);
    expect((await b.connections.list()).map((item) => item.id)).toEqual(['support']);
    expect(await b.subscriptions.list()).toEqual([]);
    expect(await b.subscriptions.get(A_SUBSCRIPTION)).toBeUndefined();
    expect(await b.connections.remove(A_ONLY)).toBe(false);
    expect(await stores.forTenant(A).connections.get(A_ONLY)).toBeDefined();
    expect(await stores.forTenant(DEFAULT_TENANT).connections.list()).toEqual([]);
  });

  it('refuses a tenant id outside the pattern before any store is touched', () => {
    for (const bad of ['../a', 'A', '%2e%2e', '', 'a/b', 'default/../a']) {
      expect(() => stores.forTenant(bad as never), bad).toThrow(
        expect.objectContaining({ code: 'input_invalid' }),
      );
      expect(() => new Runtime({ tenant: bad as never }), bad).toThrow(
        expect.objectContaining({ code: 'input_invalid' }),
      );
    }
  });
});

describe('library: coordination is kept apart per tenant', () => {
  it("one tenant's idempotency record never answers another's call with the same key", async () => {
    const stores = new MemoryTenantStores();
    const coordination = new LocalCoordinator();
    const provider2 = await countingProvider();
    try {
      for (const [tenant, token] of [
        [A, A_TOKEN],
        [B, B_TOKEN],
      ] as const) {
        await stores.forTenant(tenant).connections.put(deskConnection('support', token, provider2.url));
        const runtime = new Runtime({ tenant, tenantStores: stores, coordination, transport: 'fetch' });
        const result = await registry.invoke(runtime, CALL, {
          connection: 'support',
          input: INPUT,
          idempotencyKey: 'same-key',
        });
        expect(result.meta.fromIdempotencyRecord).toBeUndefined();
      }
      // Both ran: b was not handed a's recorded result.
      expect(provider2.seen.map((line) => line.split(' ').at(-1))).toEqual([A_TOKEN, B_TOKEN]);
    } finally {
      await provider2.close();
    }
  });
});
