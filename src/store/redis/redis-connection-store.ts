import type { Connection } from '../../model/connection.js';
import { DEFAULT_TENANT, type TenantId } from '../../model/tenant-id.js';
import { checkConnection } from '../check-connection.js';
import { CONNECTION_SHAPE, connectionWithoutSecrets } from '../connection-shape.js';
import type { ConnectionStore } from '../connection-store.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { withLock } from '../with-lock.js';
import type { KeySource } from './encrypted-records.js';
import { listPublicRecords } from './public-records.js';
import type { RedisHandle } from './redis-handle.js';
import { RedisRecordStore } from './redis-record-store.js';
import { RedisRefreshJournal } from './redis-refresh-journal.js';

export interface RedisConnectionStoreOptions {
  /** How long a held connection lock lives without its heartbeat: a killed holder loses it after this. Default 10 s. */
  lockTtlMs?: number;
  /** How long to wait for another worker's lock (a refresh) before a retryable TimeoutError. Default 45 s. */
  lockWaitMs?: number;
}

/** The kind of the connection records in Redis (`<prefix>:conn:<id>`). */
const CONNECTION_RECORDS = CONNECTION_SHAPE.kind;

/**
 * Connections shared by every worker, in Redis: public fields in clear (for
 * listing), secrets sealed with AES-256-GCM under `TOOLSTEPS_ENCRYPTION_KEY`.
 * `update` is a compare-and-set, so two workers never overwrite each other's
 * change; `withConnectionLock` is a Redis lock with an owner token and a
 * heartbeat, so a token refresh runs in one worker at a time and a holder
 * that dies loses the lock after its TTL.
 */
export class RedisConnectionStore extends RedisRecordStore<Connection> implements ConnectionStore {
  readonly refreshJournal: RedisRefreshJournal;

  constructor(
    private readonly coordinator: RedisHandle,
    keys: SecretBox | KeySource,
    private readonly options: RedisConnectionStoreOptions = {},
    tenant: TenantId = DEFAULT_TENANT,
  ) {
    super(coordinator, keys, CONNECTION_SHAPE, checkConnection, tenant);
    this.refreshJournal = new RedisRefreshJournal(coordinator);
  }

  /** Every connection's public fields, read without the encryption key. */
  listPublic(): Promise<Record<string, unknown>[]> {
    return this.records.listPublic();
  }

  /**
   * Every connection without its secrets, for a process that holds no
   * encryption key (`connections list` without TOOLSTEPS_ENCRYPTION_KEY).
   * Each public part is checked as a stored connection is (an InputError
   * naming fields, never values). Which secrets a connection has, a refresh
   * token included, is sealed with them, so it is not known here.
   */
  static async listWithoutSecrets(coordinator: RedisHandle): Promise<Omit<Connection, 'secrets'>[]> {
    const parts = await listPublicRecords(coordinator, CONNECTION_RECORDS, 'connection');
    return parts.map(connectionWithoutSecrets);
  }

  withConnectionLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    return withLock(this.coordinator, `connection:${id}`, work, {
      ttlMs: this.options.lockTtlMs ?? 10_000,
      waitMs: this.options.lockWaitMs ?? 45_000,
    });
  }
}
