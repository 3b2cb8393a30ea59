import { openPgPool } from '../../peers/load-pg.js';
import { type MigrateOptions, type MigrateResult, migrate } from './migrate.js';

/**
 * `toolsteps db migrate` as a call: opens one session to `url`, brings the
 * toolsteps schema up to date (`migrate`: each migration in a transaction,
 * serialized by an advisory lock, nothing applied twice), and closes it.
 * Needs no encryption key: no record is read.
 */
export async function migrateDatabase(url: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const pool = await openPgPool(url, { max: 1 });
  try {
    return await migrate(pool, options);
  } finally {
    await pool.end();
  }
}
