import type { DatabaseStatus } from '../../src/store/postgres/describe-database.js';
import type { DoctorCheck } from './doctor-check.js';

/** The verdict on a database that answered: its schema, then its row-level security. */
function verdict(status: DatabaseStatus): Pick<DoctorCheck, 'status' | 'summary'> {
  if (status.version !== status.expected) {
    return {
      status: 'fail',
      summary: `postgres: ${status.where} is at schema version ${status.version}, this toolsteps needs ${status.expected}: run \`toolsteps db migrate\``,
    };
  }
  if (status.unwalled?.length) {
    return {
      status: 'warn',
      summary: `postgres: row-level security is off or not forced on ${status.unwalled.join(', ')}: tenants rest on the queries alone`,
    };
  }
  if (status.bypassesWall) {
    return {
      status: 'warn',
      summary: `postgres: ${status.where} answers, but its role is a superuser or BYPASSRLS, so row-level security does not apply to it: connect as a plain role`,
    };
  }
  if (status.owned?.length) {
    return {
      status: 'warn',
      summary: `postgres: the role connected owns ${status.owned.join(', ')}, so it could turn row-level security off: migrate as an owner role with \`toolsteps db migrate --grant-to <worker role>\` and connect the workers as that role, which owns nothing`,
    };
  }
  return {
    status: 'ok',
    summary: `postgres: connections and subscriptions are kept in ${status.where} (schema version ${status.version}, row-level security on)`,
  };
}

/**
 * The Postgres store of TOOLSTEPS_DATABASE_URL: whether it answers, its
 * schema version against this toolsteps', and whether row-level security
 * walls every tenant's table for the role connected. Needs no encryption key.
 */
export async function checkDatabaseStore(env: NodeJS.ProcessEnv = process.env): Promise<DoctorCheck> {
  const { configuredDatabaseUrl } = await import('../../src/store/postgres/database-url.js');
  const url = configuredDatabaseUrl(env);
  if (!url) {
    return {
      name: 'database',
      status: 'info',
      summary:
        'no database: connections and subscriptions live in files, or in Redis with TOOLSTEPS_REDIS_URL',
      details: ['TOOLSTEPS_DATABASE_URL is not set'],
    };
  }
  const [{ openPgPool }, { describeDatabase }] = await Promise.all([
    import('../../src/peers/load-pg.js'),
    import('../../src/store/postgres/describe-database.js'),
  ]);
  const pool = await openPgPool(url, { max: 1, connectMs: 3_000, statementMs: 5_000 });
  try {
    const status = await describeDatabase(pool, url);
    const details = [`TOOLSTEPS_DATABASE_URL is set (shown without credentials: ${status.where})`];
    if (!status.reachable) {
      return {
        name: 'database',
        status: 'fail',
        summary: `postgres: ${status.where} does not answer (${status.detail ?? 'no reply'}); connections cannot be read`,
        details,
      };
    }
    return { name: 'database', ...verdict(status), details };
  } finally {
    await pool.end();
  }
}
