import { ToolstepsError } from '../../errors/index.js';
import { parseTenantId, type TenantId } from '../../model/tenant-id.js';
import type { PgClient, PgPool, PgResult } from '../../peers/pg-client.js';
import { postgresFailure } from './postgres-failure.js';

/** Whether the session still talks: our own error, or one the server answered with (a SQLSTATE outside the connection classes). */
function serverAnswered(error: unknown): boolean {
  if (ToolstepsError.isInstance(error)) return true;
  const code = String((error as { code?: unknown } | undefined)?.code ?? '');
  return /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08') && !code.startsWith('57P');
}

/**
 * Every statement the Postgres store runs, run inside a transaction that
 * set its tenant first (`app.tenant`, local to the transaction, so a pooled
 * session never carries it to the next caller): the row-level security
 * policies then hide every other tenant's rows from it, whatever its SQL
 * says. A failure of the database is a typed error (`postgresFailure`); an
 * error of ours thrown by the work passes as it is, after a rollback.
 */
export class TenantSessions {
  constructor(private readonly pool: PgPool) {}

  /** Runs `work` in one transaction as `tenant`: commits what it did, or rolls all of it back. */
  inTenant<T>(tenant: TenantId, work: (client: PgClient) => Promise<T>): Promise<T> {
    // Written into the statement, so the transaction starts and takes its tenant in one round
    // trip: checked against the id pattern first, a tenant id holds no quote or backslash.
    const checked = parseTenantId(tenant);
    return this.transaction(`BEGIN; SELECT set_config('app.tenant', '${checked}', true)`, work);
  }

  /**
   * One read as `tenant` in one round trip: `set_config` and `select` go as
   * one simple query, which Postgres runs as one implicit transaction, so
   * the tenant, local to it, is set before `select` is planned and is gone
   * when it ends, as in `inTenant`. A simple query carries no parameters:
   * `select` is made with the client's `escapeLiteral` (node-postgres's
   * own escaping), which it must use for every value. Resolves
   * `select`'s rows. Three round trips (BEGIN and the tenant, the read,
   * COMMIT) were most of a stored connection's lookup.
   */
  async readInTenant<Row>(
    tenant: TenantId,
    select: (literal: (value: string) => string) => string,
  ): Promise<Row[]> {
    const checked = parseTenantId(tenant);
    const client = await this.pool.connect().catch((error: unknown) => {
      throw postgresFailure(error);
    });
    let broken: unknown;
    try {
      // Two statements answer two results (node-postgres resolves an array for a simple query of several).
      const results = (await client.query(
        `SELECT set_config('app.tenant', '${checked}', true); ${select((value) => client.escapeLiteral(value))}`,
      )) as unknown as PgResult<Row>[];
      return results[1]?.rows ?? [];
    } catch (error) {
      // A statement that failed ended its implicit transaction; only a lost session is suspect.
      if (!serverAnswered(error)) broken = error;
      throw postgresFailure(error);
    } finally {
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : true);
    }
  }

  /**
   * Runs `work` in a read-only transaction that sees every tenant's rows
   * (the listing policy): for counting tenants, never for a record's content.
   */
  acrossTenants<T>(work: (client: PgClient) => Promise<T>): Promise<T> {
    return this.transaction("BEGIN READ ONLY; SELECT set_config('app.tenant_listing', 'on', true)", work);
  }

  private async transaction<T>(begin: string, work: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw postgresFailure(error);
    });
    let broken: unknown;
    try {
      await client.query(begin);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (serverAnswered(error)) {
        await client.query('ROLLBACK').catch((lost: unknown) => {
          broken = lost;
        });
      } else {
        // No answer in time, or the connection is gone: closing the session rolls it back, without a wait.
        broken = error;
      }
      throw postgresFailure(error);
    } finally {
      // A session whose rollback failed is in an unknown state: closed, not pooled.
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : true);
    }
  }
}
