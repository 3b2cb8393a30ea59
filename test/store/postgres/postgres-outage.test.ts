import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/errors/index.js';
import { DEFAULT_TENANT } from '../../../src/model/tenant-id.js';
import { PostgresTenantStores } from '../../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../../src/store/sealed/secret-box.js';
import { acmeConnection } from '../../support/acme-connection.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { type OwnDatabase, ownMigratedDatabase, postgresSuiteEnabled } from '../../support/test-postgres.js';

const enabled = await postgresSuiteEnabled();
const PASSWORD = 'pg-password-never-printed';

/**
 * Postgres going away under a running store, through a proxy in front of
 * the machine's server (which other checkouts share, so it is never the one
 * stopped): each call fails with a typed, retryable error within its
 * deadline, naming the server without its password, and the store works
 * again once the server is back, without being reopened.
 */
describe.skipIf(!enabled)('the Postgres store when the database goes away (Postgres)', () => {
  let database: OwnDatabase;
  let proxy: TcpProxy;
  let stores: PostgresTenantStores;

  beforeAll(async () => {
    database = await ownMigratedDatabase('outage');
    proxy = new TcpProxy('127.0.0.1', Number(new URL(database.url).port || 5432));
    await proxy.start();
    const url = new URL(database.url);
    url.port = String(proxy.port);
    url.password = PASSWORD; // trust auth ignores it; it must never show
    stores = await PostgresTenantStores.open({
      url: url.toString(),
      box: new SecretBox(randomBytes(32)),
      connectMs: 1_000,
      statementMs: 1_000,
      lockWaitMs: 1_000,
    });
    await stores.forTenant(DEFAULT_TENANT).connections.put(acmeConnection('support'));
  });
  afterAll(async () => {
    await stores?.close();
    await proxy?.stop();
    await database?.drop();
  });

  const connections = () => stores.forTenant(DEFAULT_TENANT).connections;

  it('stopped: every call is a retryable network_error, nothing sent, no password in it', async () => {
    await proxy.stop();
    for (const call of [
      () => connections().get('support'),
      () => connections().list(),
      () => connections().update('support', (current) => current),
      () => connections().withConnectionLock('support', async () => 'never'),
      () => stores.tenants(),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'network_error', retryable: true, sent: false });
      // Nothing says where the database is: the message reaches API answers, to any tenant.
      for (const text of [JSON.stringify(error), String((error as Error).message)]) {
        expect(text).not.toContain('127.0.0.1');
        expect(text).not.toContain(String(proxy.port));
        expect(text).not.toContain(database.name);
      }
      expect(JSON.stringify(error)).not.toContain(PASSWORD);
      expect(String((error as Error).message)).not.toContain(PASSWORD);
    }
  });

  it('back: the same store works again without being reopened', async () => {
    await proxy.start();
    expect((await connections().get('support'))?.id).toBe('support');
  });

  it('a lock held while the database goes away: the work finishes, the process goes on, the lock is free after', async () => {
    const held = await connections().withConnectionLock('support', async () => {
      await proxy.stop();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return 'done';
    });
    expect(held).toBe('done');
    await proxy.start();
    expect(await connections().withConnectionLock('support', async () => 'again')).toBe('again');
  });

  it('answering nothing: a query on an open session, then a new session, each fail by their deadline as a retryable timeout', async () => {
    expect((await connections().get('support'))?.id).toBe('support'); // a session open in the pool
    proxy.silence();
    for (const deadline of ['query', 'connect']) {
      const started = Date.now();
      const error = await connections()
        .get('support')
        .catch((caught: unknown) => caught);
      expect(error, deadline).toMatchObject({ code: 'timeout', retryable: true, sent: false });
      // Bounded by the deadlines (1 s, plus the client's 2 s margin on a query), not the test's timeout.
      expect(Date.now() - started).toBeLessThan(15_000);
    }
    await proxy.stop();
    await proxy.start();
    expect((await connections().get('support'))?.id).toBe('support');
  });
});
