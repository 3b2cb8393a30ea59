import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyRedisValue, newEncryptionKey } from '../coordination/support/worker-processes.js';
import { bundleForChild } from '../support/bundle-for-child.js';
import { bundledCliProcess } from '../support/bundled-cli-process.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const REDIS_URL = testRedisUrl(5);
const PREFIX = testPrefix('cli');
const enabled = await redisSuiteEnabled(REDIS_URL);

describe.skipIf(!enabled)('the CLI with TOOLSTEPS_REDIS_URL: connections shared, secrets sealed', () => {
  let main: string;
  let home: string;
  const key = newEncryptionKey();
  const accessToken = `tkt_at_${newEncryptionKey()}`;
  const refreshToken = `tkt_rt_${newEncryptionKey()}`;

  beforeAll(async () => {
    await clearTestKeys(REDIS_URL, PREFIX);
    home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-cli-redis-'));
    // The CLI as the package ships it: one bundle, with ioredis (a peer) loaded from outside it.
    ({ main } = await bundleForChild('toolsteps-cli-redis'));
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await clearTestKeys(REDIS_URL, PREFIX);
  });

  /** One CLI process over the Redis of this suite. */
  const toolsteps = (args: string[], env: Record<string, string | undefined>) =>
    bundledCliProcess(main, () => ({
      TOOLSTEPS_HOME: home,
      TOOLSTEPS_REDIS_URL: REDIS_URL,
      TOOLSTEPS_REDIS_PREFIX: PREFIX,
      TOOLSTEPS_ENCRYPTION_KEY: key,
      T_ACCESS: accessToken,
      T_REFRESH: refreshToken,
    }))(args, env);

  it('a connection added by one process is listed by another, lives in Redis, and no Redis value holds its secrets', async () => {
    const added = await toolsteps(
      [
        'connections',
        'add',
        'ticketing',
        '--id',
        'shared-acme',
        '--subdomain',
        'acme',
        '--client-id',
        'toolsteps-cli',
        '--access-token-env',
        'T_ACCESS',
        '--refresh-token-env',
        'T_REFRESH',
      ],
      {},
    );
    expect(added).toMatchObject({ code: 0 });
    const listed = await toolsteps(['connections', 'list', '--json'], {});
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ id: 'shared-acme', integration: 'ticketing' }),
    ]);
    expect(existsSync(path.join(home, 'connections', 'shared-acme.json'))).toBe(false);
    const everything = (await everyRedisValue(REDIS_URL)).join('\n');
    expect(everything).toContain('shared-acme');
    expect(everything).not.toContain(accessToken);
    expect(everything).not.toContain(refreshToken);
    expect(everything).not.toContain(key);

    // doctor in a third process reads the connections where they live: Redis, not the empty file store.
    const doctor = await toolsteps(['doctor', '--json'], {});
    const { checks } = JSON.parse(doctor.out) as { checks: { name: string; details: string[] }[] };
    const connections = checks.find((check) => check.name === 'connections');
    expect(connections?.details.join('\n')).toContain('shared-acme (ticketing)');
    expect(doctor.out).not.toContain(accessToken);
  });

  it('connections list needs no key: without one it lists the public fields, and says refresh is unknown', async () => {
    const json = await toolsteps(['connections', 'list', '--json'], { TOOLSTEPS_ENCRYPTION_KEY: undefined });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual([
      {
        id: 'shared-acme',
        integration: 'ticketing',
        label: null,
        fields: { subdomain: 'acme', clientId: 'toolsteps-cli' },
        state: 'ok',
        // The refresh token is sealed with the other secrets: with a key it is known (true), here it is not.
        refreshable: null,
        // Read from the public part (token ends, what was last recorded): no secret is needed for it.
        health: { state: 'healthy', checkedAt: expect.any(String) },
      },
    ]);
    const table = await toolsteps(['connections', 'list'], { TOOLSTEPS_ENCRYPTION_KEY: undefined });
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^shared-acme\s+ticketing\s+healthy\s+no expiry/m);
    expect(table.err).toContain('TOOLSTEPS_ENCRYPTION_KEY is not set');
    const withKey = await toolsteps(['connections', 'list', '--json'], {});
    expect(JSON.parse(withKey.out)).toEqual([
      expect.objectContaining({ id: 'shared-acme', refreshable: true }),
    ]);
    for (const result of [json, table]) expect(result.out + result.err).not.toContain(accessToken);
  });

  it('a missing, malformed or wrong key is a clear typed error, never an empty secret', async () => {
    // Listing needs no key (above); anything that opens the secrets does.
    const missing = await toolsteps(['connections', 'rekey', '--json'], {
      TOOLSTEPS_ENCRYPTION_KEY: undefined,
    });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out).error).toMatchObject({
      code: 'encryption_key_invalid',
      context: { problem: 'missing' },
    });
    const malformed = await toolsteps(['connections', 'list', '--json'], {
      TOOLSTEPS_ENCRYPTION_KEY: 'c2hvcnQ=',
    });
    expect(JSON.parse(malformed.out).error).toMatchObject({
      code: 'encryption_key_invalid',
      context: { problem: 'malformed' },
    });
    const wrong = await toolsteps(['connections', 'list', '--json'], {
      TOOLSTEPS_ENCRYPTION_KEY: newEncryptionKey(),
    });
    expect(JSON.parse(wrong.out).error).toMatchObject({
      code: 'encryption_key_invalid',
      context: { problem: 'wrong' },
    });
    for (const result of [missing, malformed, wrong]) {
      expect(result.out + result.err).not.toContain(accessToken);
    }
  });

  it('connections rekey re-wraps the data key with a new key, leaving the records; afterwards the old key alone opens nothing', async () => {
    const next = newEncryptionKey();
    const rekeyed = await toolsteps(['connections', 'rekey', '--json'], {
      TOOLSTEPS_ENCRYPTION_KEY: next,
      TOOLSTEPS_ENCRYPTION_KEY_PREVIOUS: key,
    });
    expect(rekeyed.code).toBe(0);
    // The connection is sealed with the tenant's data key: only that key is re-wrapped (issue 23).
    expect(JSON.parse(rekeyed.out)).toMatchObject({
      dataKeys: { rewrapped: 1, total: 1 },
      connections: { rekeyed: 0, total: 1 },
    });
    const withNew = await toolsteps(['connections', 'list', '--json'], { TOOLSTEPS_ENCRYPTION_KEY: next });
    expect(JSON.parse(withNew.out)).toEqual([expect.objectContaining({ id: 'shared-acme' })]);
    const withOld = await toolsteps(['connections', 'list', '--json'], {});
    expect(JSON.parse(withOld.out).error).toMatchObject({ code: 'encryption_key_invalid' });
  });
});
