import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openPgPool } from '../../src/peers/load-pg.js';
import { migrate } from '../../src/store/postgres/migrate.js';
import {
  type PostgresStoresOptions,
  PostgresTenantStores,
} from '../../src/store/postgres/postgres-tenant-stores.js';
import { SecretBox } from '../../src/store/sealed/secret-box.js';

/**
 * The Postgres the tests use: `TOOLSTEPS_TEST_POSTGRES_URL`, else the
 * machine's own at 127.0.0.1:5432 as user postgres (trust auth). Each test
 * file makes a database and a role of its own (`ownDatabase`) and drops them
 * after, so files running at once never see each other's rows.
 */
export function adminUrl(database = 'postgres'): string {
  const base = new URL(
    process.env.TOOLSTEPS_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  base.pathname = `/${database}`;
  return base.toString();
}

/** Runs one statement as the superuser, on `database`. */
export async function asSuperuser<T = unknown>(database: string, sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: adminUrl(database), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql, values)) as pg.QueryResult<T & pg.QueryResultRow>;
  } finally {
    await client.end();
  }
}

/** Whether Postgres answers at all; tries once, for a few seconds. */
export async function postgresAnswers(): Promise<boolean> {
  try {
    await asSuperuser('postgres', 'SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a Postgres suite runs here. Without Postgres it is skipped on a
 * developer's machine, but under CI (`CI` set) it runs and fails, so a CI
 * that lost its Postgres never passes by skipping.
 */
export async function postgresSuiteEnabled(): Promise<boolean> {
  return Boolean(process.env.CI) || (await postgresAnswers());
}

export interface OwnDatabase {
  /** Connects as the test's own role: not a superuser, no BYPASSRLS, so row-level security holds for it. */
  url: string;
  name: string;
  /** Connects to the same database as the superuser (to look behind the store's back). */
  adminUrl: string;
  drop(): Promise<void>;
}

/**
 * A database of the test file's own, `toolsteps_test_<name>_<random>`,
 * owned by a login role of the same name that is neither a superuser nor
 * allowed to bypass row-level security: the way a deployment's workers
 * should connect, and the only way the policies can be seen to hold.
 */
export async function ownDatabase(name: string): Promise<OwnDatabase> {
  const { id, urlAs, drop } = await databaseWithRoles(name, ['']);
  return { url: urlAs(''), name: id, adminUrl: adminUrl(id), drop };
}

/**
 * A database `toolsteps_test_<name>_<random>` and plain login roles (no
 * superuser, no BYPASSRLS) named by it and each suffix; the first owns the
 * database. `urlAs(suffix)` connects as that role; `drop` removes them all.
 */
async function databaseWithRoles(name: string, suffixes: string[]) {
  const id = `toolsteps_test_${name}_${randomBytes(4).toString('hex')}`;
  const roles = suffixes.map((suffix) => `${id}${suffix}`);
  for (const role of roles) {
    await asSuperuser(
      'postgres',
      `CREATE ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`,
    );
  }
  await asSuperuser('postgres', `CREATE DATABASE ${id} OWNER ${roles[0]}`);
  const urlAs = (suffix: string) => {
    const url = new URL(adminUrl(id));
    url.username = `${id}${suffix}`;
    return url.toString();
  };
  const drop = async () => {
    await asSuperuser('postgres', `DROP DATABASE IF EXISTS ${id} WITH (FORCE)`);
    for (const role of roles.reverse()) await asSuperuser('postgres', `DROP ROLE IF EXISTS ${role}`);
  };
  return { id, urlAs, drop };
}

/** A database of the test's own (`ownDatabase`) with every migration applied, as `toolsteps db migrate` leaves it. */
export async function ownMigratedDatabase(name: string): Promise<OwnDatabase> {
  const database = await ownDatabase(name);
  const pool = await openPgPool(database.url);
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  return database;
}

/** A suite's migrated database and the store opened on it, as its role (`usePostgresStores`). */
export interface PostgresSuite {
  database: OwnDatabase;
  stores: PostgresTenantStores;
}

/**
 * For a describe block: a migrated database of its own and a
 * `PostgresTenantStores` on it (a fresh key), made before its tests and
 * closed and dropped after. Read the fields inside the tests.
 */
export function usePostgresStores(
  name: string,
  options: Omit<PostgresStoresOptions, 'url'> = {},
): PostgresSuite {
  const suite = {} as PostgresSuite;
  beforeAll(async () => {
    suite.database = await ownMigratedDatabase(name);
    suite.stores = await PostgresTenantStores.open({
      url: suite.database.url,
      box: new SecretBox(randomBytes(32)),
      ...options,
    });
  });
  afterAll(async () => {
    await suite.stores?.close();
    await suite.database?.drop();
  });
  return suite;
}

/** A database whose tables an owner role migrates, and a worker role that owns nothing connects to (`ownTwoRoleDatabase`). */
export interface TwoRoleDatabase {
  name: string;
  /** Connects as the owner: runs `db migrate --grant-to <workerRole>`. */
  ownerUrl: string;
  /** Connects as the workers' role: granted rows, owner of nothing, no BYPASSRLS. */
  workerUrl: string;
  workerRole: string;
  drop(): Promise<void>;
}

/**
 * The setup docs/tenants.md recommends: the database and, once migrated,
 * every table owned by `<id>_owner`; the workers connect as `<id>_worker`,
 * a plain login role (no superuser, no BYPASSRLS) granted nothing yet.
 */
export async function ownTwoRoleDatabase(name: string): Promise<TwoRoleDatabase> {
  const { id, urlAs, drop } = await databaseWithRoles(name, ['_owner', '_worker']);
  return {
    name: id,
    ownerUrl: urlAs('_owner'),
    workerUrl: urlAs('_worker'),
    workerRole: `${id}_worker`,
    drop,
  };
}
