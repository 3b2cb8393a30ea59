import type { TenantId } from '../../model/tenant-id.js';
import type { PgClient } from '../../peers/pg-client.js';
import type { SecretBox } from '../sealed/secret-box.js';
import { WrappedDataKey } from '../sealed/wrapped-data-key.js';
import { SCHEMA } from './migrations/migration.js';

const TABLE = `${SCHEMA}.data_keys`;

/** Stores a tenant's sealed guard (`PostgresTenantGuard`), in the caller's transaction of the tenant. */
export async function writeGuard(client: PgClient, tenant: TenantId, sealed: string): Promise<void> {
  await client.query(
    `INSERT INTO ${SCHEMA}.tenant_guards (tenant, sealed) VALUES ($1, $2)
     ON CONFLICT (tenant) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()`,
    [tenant, sealed],
  );
}

/**
 * One tenant's data key in Postgres (a row of `data_keys`), read inside the
 * transaction that reads or writes the tenant's records, so a key made,
 * re-wrapped or destroyed by another process is the one used here on the
 * next call. As in Redis: made on the first write (the first inserter
 * wins), never by a read, and a tenant without one opens what the master
 * key sealed before data keys existed.
 */
export class PostgresDataKey {
  /** How the stored key is wrapped: its guard reads which release made it (`GuardReading`). */
  readonly wrapping: WrappedDataKey;

  constructor(
    private readonly master: SecretBox,
    private readonly tenant: TenantId,
    /** The first guard's stored text for a new data key's box: made in the same transaction (`PostgresTenantGuard`). */
    private readonly firstGuard?: (box: SecretBox) => string,
  ) {
    this.wrapping = new WrappedDataKey(master, tenant, `postgres:${SCHEMA}`);
  }

  private async stored(client: PgClient, lock = false): Promise<string | undefined> {
    const { rows } = await client.query<{ wrapped: string }>(
      `SELECT wrapped FROM ${TABLE} WHERE tenant = $1${lock ? ' FOR UPDATE' : ''}`,
      [this.tenant],
    );
    return rows[0]?.wrapped;
  }

  /** The box a wrapped key read with a record opens to (`SealedRows.readWithKey`); none: the master key's. */
  boxOf(wrapped: string | undefined): SecretBox {
    return wrapped === undefined ? this.master : this.wrapping.boxOf(wrapped);
  }

  /** The tenant's box, in a transaction of the tenant; `forWriting` makes the key when there is none. */
  async boxIn(client: PgClient, forWriting = false): Promise<SecretBox> {
    let stored = await this.stored(client);
    if (stored === undefined) {
      if (!forWriting) return this.master;
      // Another writer's uncommitted insert makes this one wait, then do nothing; the read sees its key.
      const fresh = this.wrapping.fresh();
      const { rowCount } = await client.query(
        `INSERT INTO ${TABLE} (tenant, wrapped) VALUES ($1, $2) ON CONFLICT (tenant) DO NOTHING`,
        [this.tenant, fresh],
      );
      if (rowCount && this.firstGuard) {
        // One left by a data key deleted outside toolsteps is replaced: it no longer opens anyway.
        await writeGuard(client, this.tenant, this.firstGuard(this.boxOf(fresh)));
      }
      stored = (await this.stored(client))!;
    }
    return this.boxOf(stored);
  }

  /** Wraps the key with the current master key when an older one wrapped it; true when it did. */
  async rewrapIn(client: PgClient): Promise<boolean> {
    const stored = await this.stored(client, true);
    const next = stored === undefined ? undefined : this.wrapping.rewrapped(stored);
    if (next === undefined) return false;
    await client.query(`UPDATE ${TABLE} SET wrapped = $2, updated_at = now() WHERE tenant = $1`, [
      this.tenant,
      next,
    ]);
    return true;
  }
}
