import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStores, type RedisStores } from '../../../src/coordination/open-redis-stores.js';
import { TamperedRecordError } from '../../../src/errors/index.js';
import type { Connection } from '../../../src/model/connection.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { createRegistry } from '../../../steps/index.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../../support/test-redis.js';
import { subscriptionFor } from '../../triggers/trigger-fixtures.js';

/**
 * A Redis writer without the encryption key attacks the sealed records: it
 * points a connection's base URL at its own server, edits a subscription's
 * constraints, copies a record onto another id, restores an older copy, or
 * plants a record in the format from before public fields were sealed. Each
 * is refused with nothing sent anywhere.
 */

const REDIS_URL = testRedisUrl(11);
const enabled = await redisSuiteEnabled(REDIS_URL);
const ACCESS = 'tkt_at_sealed-attack-0123456789';
const REFRESH = 'tkt_rt_sealed-attack-0123456789';

/** A loopback server that counts what reaches it and answers like the provider would. */
async function countingServer(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function connection(id: string, baseUrl: string, expiresAt: number): Connection {
  return {
    id,
    integration: 'ticketing',
    label: 'Acme support',
    kind: 'oauth2',
    fields: { subdomain: 'acme', clientId: 'toolsteps-cli', baseUrl },
    secrets: { accessToken: ACCESS, refreshToken: REFRESH },
    expiresAt,
    createdAt: 1,
    updatedAt: 2,
  };
}

describe.skipIf(!enabled)('sealed records attacked by a Redis writer without the key (Redis)', () => {
  const prefix = testPrefix('sealed');
  const box = new SecretBox(randomBytes(32));
  let stores: RedisStores;
  let provider: Awaited<ReturnType<typeof countingServer>>;
  let attacker: Awaited<ReturnType<typeof countingServer>>;

  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, prefix);
    stores = await openRedisStores({ redisUrl: REDIS_URL, prefix, box });
    provider = await countingServer();
    attacker = await countingServer();
  });
  afterAll(async () => {
    await stores.close();
    await clearTestKeys(REDIS_URL, prefix);
    provider.server.close();
    attacker.server.close();
  });

  const hashOf = (kind: string, id: string) => stores.coordinator.key(kind, id);
  const client = () => stores.coordinator.client;

  /** Rewrites one field of a record's public JSON in Redis, as a writer without the key can. */
  async function editPublic(kind: string, id: string, edit: (part: Record<string, unknown>) => void) {
    const part = JSON.parse((await client().hget(hashOf(kind, id), 'public')) as string);
    edit(part);
    await client().hset(hashOf(kind, id), 'public', JSON.stringify(part));
  }

  it('a base URL pointed elsewhere is refused before any request: no token, fresh or refresh, leaves', async () => {
    // Expired, so binding would refresh first: the refresh token is at stake too.
    await stores.connections.put(connection('acme', provider.url, Date.now() - 60_000));
    await editPublic('conn', 'acme', (part) => {
      (part.fields as Record<string, unknown>).baseUrl = attacker.url;
    });
    const runtime = new Runtime({ store: stores.connections });
    const error = await createRegistry()
      .invoke(runtime, 'ticketing.get_ticket_info', { connection: 'acme', input: { ticket_id: 1 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TamperedRecordError);
    expect(error).toMatchObject({
      code: 'record_tampered',
      problem: 'altered',
      retryable: false,
      sent: false,
    });
    expect(JSON.stringify(error)).not.toContain(attacker.url);
    expect(attacker.seen).toEqual([]);
    expect(provider.seen).toEqual([]);
  });

  it("a subscription's constraints or target edited in Redis are refused", async () => {
    const id = 'sub_0a1b2c3d4e5f60718293';
    await stores.subscriptions.put(subscriptionFor('ticketing.ticket_created', { id }));
    await editPublic('sub', id, (part) => {
      part.active = !part.active;
    });
    await expect(stores.subscriptions.get(id)).rejects.toMatchObject({ problem: 'altered' });
    await expect(stores.subscriptions.list()).rejects.toBeInstanceOf(TamperedRecordError);
  });

  it('a subscription read (and its seal kept opened) before an edit in Redis is refused after it', async () => {
    const id = 'sub_0a1b2c3d4e5f60718294';
    await stores.subscriptions.put(subscriptionFor('ticketing.ticket_created', { id }));
    expect((await stores.subscriptions.get(id))?.id).toBe(id);
    expect((await stores.subscriptions.get(id))?.id).toBe(id);
    await editPublic('sub', id, (part) => {
      part.target = 'https://attacker.example';
    });
    await expect(stores.subscriptions.get(id)).rejects.toMatchObject({ problem: 'altered' });
    // One byte of the seal itself, with the public part as it was.
    await editPublic('sub', id, (part) => {
      part.target = subscriptionFor('ticketing.ticket_created', { id }).target;
    });
    const sealed = (await client().hget(hashOf('sub', id), 'secrets')) as string;
    // A character in the middle: every one of its six bits is data (near the end of base64 some are padding, and a flip there decodes to the same bytes).
    const flipped = `${sealed.slice(0, 20)}${sealed[20] === 'A' ? 'B' : 'A'}${sealed.slice(21)}`;
    await client().hset(hashOf('sub', id), 'secrets', flipped);
    await expect(stores.subscriptions.get(id)).rejects.toMatchObject({ problem: 'altered' });
  });

  it('a record copied onto another id does not open there', async () => {
    await stores.connections.put(connection('origin', provider.url, Date.now() + 3_600_000));
    const whole = await client().hgetall(hashOf('conn', 'origin'));
    await client().hset(hashOf('conn', 'copy'), whole);
    await editPublic('conn', 'copy', (part) => {
      part.id = 'copy';
    });
    await expect(stores.connections.get('copy')).rejects.toMatchObject({ problem: 'altered' });
  });

  it('an older copy restored over a record is refused by a process that saw the newer one', async () => {
    await stores.connections.put(connection('rolled', provider.url, Date.now() + 3_600_000));
    const older = await client().hgetall(hashOf('conn', 'rolled'));
    await stores.connections.update('rolled', (current) => ({ ...current, label: 'Renamed' }));
    expect((await stores.connections.get('rolled'))?.label).toBe('Renamed');
    await client().hset(hashOf('conn', 'rolled'), older);
    await expect(stores.connections.get('rolled')).rejects.toMatchObject({
      code: 'record_tampered',
      problem: 'rolled_back',
    });
    // A process that never saw the newer copy cannot tell, and gets the record as it once was.
    const fresh = await openRedisStores({ redisUrl: REDIS_URL, prefix, box });
    try {
      expect((await fresh.connections.get('rolled'))?.label).toBe('Acme support');
    } finally {
      await fresh.close();
    }
  });

  it('a record in the format before public fields were sealed is refused until rekey seals it', async () => {
    const { secrets, ...publicPart } = connection('legacy', provider.url, Date.now() + 3_600_000);
    // The earlier format: secrets bound to the record's name only, no `format` field.
    const sealed = box.seal(JSON.stringify(secrets), 'connection legacy');
    await client().hset(hashOf('conn', 'legacy'), {
      public: JSON.stringify(publicPart),
      secrets: sealed.data,
      kid: sealed.kid,
      version: '3',
    });
    await client().sadd(stores.coordinator.key('conn', '_index'), 'legacy');
    const refused = await stores.connections.get('legacy').catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ problem: 'unsealed_format' });
    expect((refused as Error).message).toContain('toolsteps connections rekey --trust-unsealed');
    // The tampered records above are left out of the rekey: it reads what it re-seals.
    for (const id of ['acme', 'copy']) await stores.connections.remove(id);
    await client().del(hashOf('sub', 'sub_0a1b2c3d4e5f60718293'));
    // A routine rekey (a key rotation) never vouches for such a record: it names it and leaves it refused.
    const routine = await stores.connections.rekey();
    expect(routine.unsealed).toEqual(['legacy']);
    await expect(stores.connections.get('legacy')).rejects.toMatchObject({ problem: 'unsealed_format' });
    const trusted = await stores.connections.rekey({ trustUnsealed: true });
    expect(trusted).toMatchObject({ rekeyed: 1, unsealed: [] });
    expect(await stores.connections.get('legacy')).toMatchObject({ secrets });
    expect(await client().hget(hashOf('conn', 'legacy'), 'format')).toBe('2');
  });

  it('a record copied to another namespace (Redis key prefix) under the same id does not open there', async () => {
    const otherPrefix = testPrefix('sealed-other');
    const other = await openRedisStores({ redisUrl: REDIS_URL, prefix: otherPrefix, box });
    try {
      await stores.connections.put(connection('moved', provider.url, Date.now() + 3_600_000));
      const whole = await client().hgetall(hashOf('conn', 'moved'));
      await other.coordinator.client.hset(other.coordinator.key('conn', 'moved'), whole);
      await expect(other.connections.get('moved')).rejects.toMatchObject({ problem: 'altered' });
    } finally {
      await other.close();
      await clearTestKeys(REDIS_URL, otherPrefix);
    }
  });
});
