import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCoordinator } from '../../src/coordination/open-coordinator.js';
import type { RedisCoordinator } from '../../src/coordination/redis-coordinator.js';
import { DEFAULT_TENANT, parseTenantId } from '../../src/model/tenant-id.js';
import { FileTenantStores } from '../../src/store/files/file-tenant-stores.js';
import { MemoryTenantStores } from '../../src/store/memory/memory-tenant-stores.js';
import { RedisTenantStores } from '../../src/store/redis/redis-tenant-stores.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';
import type { TenantStores } from '../../src/store/tenant-stores.js';
import { postgresSuiteEnabled, usePostgresStores } from '../support/test-postgres.js';
import { clearTestKeys, redisSuiteEnabled, testPrefix, testRedisUrl } from '../support/test-redis.js';

const A = parseTenantId('a');
const B = parseTenantId('b');
const ID = 'tok_AAAAAAAAAAAAAAAA.a';
const OTHER = 'tok_BBBBBBBBBBBBBBBB.a';
const soon = () => new Date(Date.now() + 3_600_000);

/** What every backend's revocations must do: per tenant, until the token's expiry, erased with the tenant. */
function revocationContract(name: string, open: () => Promise<TenantStores>, enabled = true) {
  describe.skipIf(!enabled)(`token revocations: ${name}`, () => {
    it('hold a revoked id in its tenant only, forget it past the expiry, and go with the tenant', async () => {
      const stores = await open();
      const { revocations } = stores;
      expect(await revocations.isRevoked(A, ID)).toBe(false);
      await revocations.revoke(A, ID, soon());
      await revocations.revoke(A, ID, soon());
      expect(await revocations.isRevoked(A, ID)).toBe(true);
      expect(await revocations.isRevoked(B, ID)).toBe(false);
      expect(await revocations.isRevoked(A, OTHER)).toBe(false);
      await revocations.revoke(A, OTHER, new Date(Date.now() - 1000));
      expect(await revocations.isRevoked(A, OTHER)).toBe(false);
      await revocations.revoke(DEFAULT_TENANT, ID, soon());
      await stores.eraseTenant(A);
      expect(await revocations.isRevoked(A, ID)).toBe(false);
      expect(await revocations.isRevoked(DEFAULT_TENANT, ID)).toBe(true);
    });
  });
}

revocationContract('memory', async () => new MemoryTenantStores());

const homes: string[] = [];
revocationContract('files', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-revocations-'));
  homes.push(home);
  return new FileTenantStores(home);
});

describe('file token revocations', () => {
  it('keep one file per id under the tenant, and turn a path trick into no file at all', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'toolsteps-revocations-'));
    homes.push(home);
    const stores = new FileTenantStores(home);
    await stores.revocations.revoke(A, ID, soon());
    await stores.revocations.revoke(A, '../../evil', soon());
    expect(await readdir(path.join(home, 'tenants', 'a', 'tokens', 'revoked'))).toEqual([ID]);
    expect(await stores.revocations.isRevoked(A, '../../evil')).toBe(false);
  });
});

const REDIS_URL = testRedisUrl(14);
const prefix = testPrefix('revocations');
const coordinators: RedisCoordinator[] = [];
revocationContract(
  'Redis',
  async () => {
    const coordinator = (await openCoordinator({ redisUrl: REDIS_URL, prefix })) as RedisCoordinator;
    coordinators.push(coordinator);
    return new RedisTenantStores(coordinator, new SecretBox(randomBytes(32)));
  },
  await redisSuiteEnabled(REDIS_URL),
);

const postgresEnabled = await postgresSuiteEnabled();
describe.skipIf(!postgresEnabled)('token revocations (Postgres)', () => {
  const suite = usePostgresStores('revocations');
  revocationContract('Postgres', async () => suite.stores, postgresEnabled);
});

afterAll(async () => {
  for (const home of homes) await rm(home, { recursive: true, force: true });
  for (const coordinator of coordinators) await coordinator.close();
  if (coordinators.length) await clearTestKeys(REDIS_URL, prefix);
});
