import type { TenantId } from '../../model/tenant-id.js';
import type { PgClient } from '../../peers/pg-client.js';
import type { SealedRecord } from '../sealed/sealed-records.js';
import { SCHEMA } from './migrations/migration.js';
import type { TenantSessions } from './tenant-sessions.js';

/** A row as stored: the columns `SealedRecords` reads, the version as text (bigint comes back as a string). */
interface SealedRow {
  id: string;
  public_json: string;
  sealed: string;
  kid: string;
  version: string;
  format: string;
}

const COLUMNS = 'id, public_json, sealed, kid, version::text AS version, format';
const JOINED_COLUMNS = 'r.id, r.public_json, r.sealed, r.kid, r.version::text AS version, r.format';

function recordOf(row: SealedRow): SealedRecord {
  return {
    publicJson: row.public_json,
    sealed: row.sealed,
    kid: row.kid,
    version: row.version,
    format: row.format,
  };
}

/**
 * The SQL of one table of sealed records (`connections`, `subscriptions`),
 * run on a client inside a tenant's transaction. Every statement names the
 * tenant in its predicate, so it is one lookup in the (tenant, id) primary
 * key; row-level security would hide another tenant's rows even if it did not.
 */
export class SealedRows {
  private readonly table: string;

  constructor(table: string) {
    this.table = `${SCHEMA}.${table}`;
  }

  /** One record; `lock` holds its row until the transaction ends (FOR UPDATE), for a read-change-write. */
  async read(
    client: PgClient,
    tenant: TenantId,
    id: string,
    lock = false,
  ): Promise<SealedRecord | undefined> {
    const { rows } = await client.query<SealedRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE tenant = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [tenant, id],
    );
    return rows[0] ? recordOf(rows[0]) : undefined;
  }

  /**
   * One record with its tenant's wrapped data key, in one statement (a
   * lookup is one indexed read, the key's row another in the same plan):
   * what a plain `get` needs, without a second round trip for the key.
   */
  async readWithKey(
    sessions: TenantSessions,
    tenant: TenantId,
    id: string,
  ): Promise<{ stored: SealedRecord; wrappedKey: string | undefined } | undefined> {
    // One statement in one round trip with the tenant (`readInTenant`), so its values are literals.
    const rows = await sessions.readInTenant<SealedRow & { wrapped: string | null }>(
      tenant,
      (literal) => `SELECT ${JOINED_COLUMNS}, k.wrapped
         FROM ${this.table} r LEFT JOIN ${SCHEMA}.data_keys k ON k.tenant = r.tenant
        WHERE r.tenant = ${literal(tenant)} AND r.id = ${literal(id)}`,
    );
    const row = rows[0];
    return row ? { stored: recordOf(row), wrappedKey: row.wrapped ?? undefined } : undefined;
  }

  /** Every record of the tenant, in id order (the primary key's order, so no sort). */
  async readAll(client: PgClient, tenant: TenantId): Promise<{ id: string; stored: SealedRecord }[]> {
    const { rows } = await client.query<SealedRow>(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE tenant = $1 ORDER BY id`,
      [tenant],
    );
    return rows.map((row) => ({ id: row.id, stored: recordOf(row) }));
  }

  /** Adds a record that is not there; false when another writer added it first (the caller reads it and tries again). */
  async insert(
    client: PgClient,
    tenant: TenantId,
    id: string,
    record: Required<SealedRecord>,
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO ${this.table} (tenant, id, public_json, sealed, kid, version, format)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant, id) DO NOTHING`,
      [tenant, id, record.publicJson, record.sealed, record.kid, record.version, record.format],
    );
    return rowCount === 1;
  }

  /** Replaces a record whose row the transaction holds (read with `lock`). */
  async replace(
    client: PgClient,
    tenant: TenantId,
    id: string,
    record: Required<SealedRecord>,
  ): Promise<void> {
    await client.query(
      `UPDATE ${this.table} SET public_json = $3, sealed = $4, kid = $5, version = $6, format = $7, updated_at = now()
       WHERE tenant = $1 AND id = $2`,
      [tenant, id, record.publicJson, record.sealed, record.kid, record.version, record.format],
    );
  }

  async delete(client: PgClient, tenant: TenantId, id: string): Promise<boolean> {
    const { rowCount } = await client.query(`DELETE FROM ${this.table} WHERE tenant = $1 AND id = $2`, [
      tenant,
      id,
    ]);
    return rowCount === 1;
  }

  /** Public parts only, for a list without the key; each is checked by the caller. */
  async readPublic(client: PgClient, tenant: TenantId): Promise<{ id: string; publicJson: string }[]> {
    const { rows } = await client.query<{ id: string; public_json: string }>(
      `SELECT id, public_json FROM ${this.table} WHERE tenant = $1 ORDER BY id`,
      [tenant],
    );
    return rows.map((row) => ({ id: row.id, publicJson: row.public_json }));
  }
}
