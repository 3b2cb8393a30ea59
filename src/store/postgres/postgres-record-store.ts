import { TamperedRecordError, TimeoutError } from '../../errors/index.js';
import type { TenantId } from '../../model/tenant-id.js';
import { isRecordId, noRecordWithId } from '../record-id.js';
import type { RecordStore } from '../record-store.js';
import { nextVersion, type RecordShape, type RekeyCounts } from '../redis/encrypted-records.js';
import { OpenedRecords } from '../sealed/opened-records.js';
import { type SealedRecord, SealedRecords } from '../sealed/sealed-records.js';
import type { SecretBox } from '../sealed/secret-box.js';
import type { PostgresDataKey } from './postgres-data-key.js';
import { SealedRows } from './sealed-rows.js';
import type { TenantSessions } from './tenant-sessions.js';

/** What one tenant's store of one kind of record is made of. */
export interface PostgresRecordScope<T> {
  sessions: TenantSessions;
  tenant: TenantId;
  /** This tenant's data key: seals its secrets. */
  keys: PostgresDataKey;
  /** The table (`connections`, `subscriptions`). */
  table: string;
  shape: RecordShape<T>;
  /** The check a record passes before it is written, as in every other store. */
  check: (record: T) => T;
}

/** A write that lost the race to add a record this many times in a row is contended beyond reason. */
const MAX_INSERT_TRIES = 10;

/** The namespace the seal binds for this store: a row copied in from a Redis store (or back) does not open. */
const NAMESPACE = 'postgres:toolsteps';

/**
 * One tenant's records of one kind in Postgres, sealed exactly as the Redis
 * store seals them (`SealedRecords`: AES-256-GCM, bound to the public part,
 * the tenant, the kind, the id and the version). Each call is one
 * transaction as the tenant; `update` holds the row (SELECT ... FOR UPDATE)
 * from its read to its write, so it is atomic across every process.
 */
export class PostgresRecordStore<T extends { id: string }> implements RecordStore<T> {
  protected readonly rows: SealedRows;
  private readonly sealing: SealedRecords;
  /**
   * The box of the tenant's data key as the last transaction read it: each
   * call reads the key in its own transaction first (`PostgresDataKey`), so
   * it seals and opens with the key the database holds now.
   */
  private box: SecretBox | undefined;
  /** What lookups opened, kept while the stored bytes and the box stay the same. */
  private readonly opened: OpenedRecords<T>;

  constructor(protected readonly scope: PostgresRecordScope<T>) {
    this.rows = new SealedRows(scope.table);
    this.sealing = new SealedRecords(() => this.box!, {
      tenant: scope.tenant,
      namespace: NAMESPACE,
      kind: scope.shape.kind,
      noun: scope.shape.noun,
    });
    this.opened = new OpenedRecords(this.sealing, () => this.box, scope.shape.join.bind(scope.shape));
  }

  private seal(id: string, record: T, expected: string | undefined): Required<SealedRecord> {
    const { publicPart, secrets } = this.scope.shape.split(record);
    return this.sealing.seal(id, nextVersion(expected), JSON.stringify(publicPart), secrets);
  }

  async get(id: string): Promise<T | undefined> {
    const { sessions, tenant, shape } = this.scope;
    if (!isRecordId(id, shape)) return undefined;
    const floor = this.sealing.floor(id);
    const found = await this.rows.readWithKey(sessions, tenant, id);
    if (!found) return undefined;
    this.box = this.scope.keys.boxOf(found.wrappedKey);
    return this.opened.open(id, found.stored, floor);
  }

  async list(): Promise<T[]> {
    const { sessions, tenant } = this.scope;
    const found = await sessions.inTenant(tenant, async (client) => {
      this.box = await this.scope.keys.boxIn(client);
      return this.rows.readAll(client, tenant);
    });
    const records: T[] = [];
    for (const { id, stored } of found) {
      try {
        records.push(this.opened.open(id, stored, 0));
      } catch (error) {
        // This process wrote a newer version while the list was read: that one, read again, is the record.
        if (!(error instanceof TamperedRecordError && error.problem === 'rolled_back')) throw error;
        const fresh = await this.get(id);
        if (fresh) records.push(fresh);
      }
    }
    return records;
  }

  async put(record: T): Promise<void> {
    const { sessions, tenant } = this.scope;
    const valid = this.scope.check(record);
    for (let tries = 0; tries < MAX_INSERT_TRIES; tries += 1) {
      const written = await sessions.inTenant(tenant, async (client) => {
        this.box = await this.scope.keys.boxIn(client, true);
        const current = await this.rows.read(client, tenant, valid.id, true);
        const sealed = this.seal(valid.id, valid, current?.version);
        if (current) await this.rows.replace(client, tenant, valid.id, sealed);
        else if (!(await this.rows.insert(client, tenant, valid.id, sealed))) return undefined;
        return sealed.version;
      });
      if (written) {
        this.sealing.written(valid.id, written);
        return;
      }
    }
    throw new TimeoutError(`Too many workers added ${this.scope.shape.noun} ${valid.id} at once; try again.`);
  }

  async update(id: string, change: (current: T) => T): Promise<T> {
    const { sessions, tenant, shape } = this.scope;
    if (!isRecordId(id, shape)) throw noRecordWithId(id, shape);
    const floor = this.sealing.floor(id);
    const { next, version } = await sessions.inTenant(tenant, async (client) => {
      const stored = await this.rows.read(client, tenant, id, true);
      if (!stored) throw noRecordWithId(id, shape);
      this.box = await this.scope.keys.boxIn(client, true);
      const changed = this.scope.check(change(this.opened.open(id, stored, floor)));
      const sealed = this.seal(id, changed, stored.version);
      await this.rows.replace(client, tenant, id, sealed);
      return { next: changed, version: sealed.version };
    });
    this.sealing.written(id, version);
    return next;
  }

  async remove(id: string): Promise<boolean> {
    const { sessions, tenant, shape } = this.scope;
    if (!isRecordId(id, shape)) return false;
    return sessions.inTenant(tenant, (client) => this.rows.delete(client, tenant, id));
  }

  /**
   * Seals under the tenant's data key every record of this tenant sealed
   * with anything else (a master key, before data keys), making the data
   * key when there are such records and none yet.
   */
  async rekey(): Promise<RekeyCounts> {
    const { sessions, tenant } = this.scope;
    const found = await sessions.inTenant(tenant, async (client) => {
      const all = await this.rows.readAll(client, tenant);
      this.box = await this.scope.keys.boxIn(client, all.length > 0);
      return all;
    });
    const counts: RekeyCounts = { rekeyed: 0, total: found.length, unsealed: [] };
    for (const { id, stored } of found) {
      if (stored.kid === this.sealing.keyId) continue;
      await this.update(id, (current) => current);
      counts.rekeyed += 1;
    }
    return counts;
  }
}
