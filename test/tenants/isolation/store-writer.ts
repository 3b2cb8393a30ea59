import { Redis } from 'ioredis';
import { asSuperuser } from '../../support/test-postgres.js';

/** A tenant's state as a store writer without the keys copied it: raw values, by key or table. */
export type Captured = Map<string, unknown>;

/**
 * A writer of the store who holds no key of toolsteps (no master key, no
 * token key): it reads, copies, deletes and puts back raw values, and
 * nothing else. `capture` before a revocation, then each attack:
 * - `drop`: deletes what changed since (the revocation's own keys or rows);
 * - `replay`: puts back what was captured, deleting what was not there;
 * - `borrow`: puts another tenant's copies in their place.
 */
export interface StoreWriter {
  capture(tenant: string): Promise<Captured>;
  drop(tenant: string, before: Captured): Promise<void>;
  replay(tenant: string, before: Captured): Promise<void>;
  borrow(tenant: string, from: string, before: Captured): Promise<void>;
  close(): Promise<void>;
}

/** The writer of a Redis: every key under the tenant's prefix, as DUMP gives it (whatever its type). */
export function redisWriter(url: string, prefix: string): StoreWriter {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  const base = (tenant: string) => `${prefix}:t:${tenant}:`;
  const capture = async (tenant: string): Promise<Captured> => {
    const found: Captured = new Map();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${base(tenant)}*`, 'COUNT', 500);
      for (const key of keys) found.set(key.slice(base(tenant).length), await client.dumpBuffer(key));
      cursor = next;
    } while (cursor !== '0');
    return found;
  };
  /** The suffixes whose value is not what `before` holds. */
  const changed = async (tenant: string, before: Captured) => {
    const now = await capture(tenant);
    const keys = new Set([...now.keys(), ...before.keys()]);
    const same = (a: unknown, b: unknown) =>
      a !== undefined && b !== undefined && (a as Buffer).equals(b as Buffer);
    return [...keys].filter((key) => !same(now.get(key), before.get(key)));
  };
  const put = async (key: string, value: unknown) => {
    if (value === undefined) await client.del(key);
    else await client.restore(key, 0, value as Buffer, 'REPLACE');
  };
  return {
    capture,
    drop: async (tenant, before) => {
      for (const key of await changed(tenant, before)) await client.del(base(tenant) + key);
    },
    replay: async (tenant, before) => {
      for (const key of await changed(tenant, before)) await put(base(tenant) + key, before.get(key));
    },
    borrow: async (tenant, from, before) => {
      const theirs = await capture(from);
      const keys = new Set([...(await changed(tenant, before)), 'datakey:current']);
      for (const key of keys) await put(base(tenant) + key, theirs.get(key));
    },
    close: async () => {
      client.disconnect();
    },
  };
}

/** The tables that hold a tenant's revocations or limits, in any schema version (absent ones are skipped). */
const STATE_TABLES = ['token_revocations', 'tenant_limits', 'tenant_guards'];

/** The writer of a Postgres database, as its superuser: the tenant's rows of the state tables, as JSON. */
export function postgresWriter(database: string): StoreWriter {
  const sql = (text: string, values: unknown[] = []) => asSuperuser<{ row: unknown }>(database, text, values);
  const tables = async () => {
    const { rows } = await asSuperuser<{ name: string }>(
      database,
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'toolsteps' AND table_name = ANY($1)`,
      [STATE_TABLES],
    );
    return rows.map((row) => row.name);
  };
  const capture = async (tenant: string): Promise<Captured> => {
    const found: Captured = new Map();
    for (const table of [...(await tables()), 'data_keys']) {
      const { rows } = await sql(`SELECT to_jsonb(t) AS row FROM toolsteps.${table} t WHERE tenant = $1`, [
        tenant,
      ]);
      found.set(
        table,
        rows.map((row) => row.row),
      );
    }
    return found;
  };
  const put = async (tenant: string, table: string, rows: unknown[]) => {
    await sql(`DELETE FROM toolsteps.${table} WHERE tenant = $1`, [tenant]);
    for (const row of rows) {
      await sql(
        `INSERT INTO toolsteps.${table} SELECT * FROM jsonb_populate_record(null::toolsteps.${table}, $1)`,
        [{ ...(row as object), tenant }],
      );
    }
  };
  return {
    capture,
    drop: async (tenant) => {
      for (const table of await tables()) await put(tenant, table, []);
    },
    replay: async (tenant, before) => {
      for (const table of [...(await tables()), 'data_keys']) {
        await put(tenant, table, (before.get(table) as unknown[]) ?? []);
      }
    },
    borrow: async (tenant, from) => {
      const theirs = await capture(from);
      for (const table of [...(await tables()), 'data_keys']) {
        await put(tenant, table, (theirs.get(table) as unknown[]) ?? []);
      }
    },
    close: async () => {},
  };
}
