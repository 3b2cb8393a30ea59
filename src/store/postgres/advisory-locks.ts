import { createHash } from 'node:crypto';
import { TimeoutError } from '../../errors/index.js';
import type { TenantId } from '../../model/tenant-id.js';
import type { PgPool } from '../../peers/pg-client.js';
import { KeyedMutex } from '../../values/keyed-mutex.js';
import { postgresFailure } from './postgres-failure.js';

/** The advisory lock key of a name in a tenant: 63 bits of a hash; a collision only makes two names wait for each other. */
function lockKey(tenant: TenantId, name: string): string {
  return createHash('sha256')
    .update(`toolsteps-lock\0${tenant}\0${name}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

/**
 * Locks across every process using the database: session-level advisory
 * locks, each held on a session of a pool of its own, so work that holds a
 * lock (a token refresh waiting on the provider) never takes a session the
 * store's queries need. A holder that dies closes its session and the lock
 * goes with it: no TTL to guess, no heartbeat. Within a process, callers of
 * one name queue on a mutex first, so one session at most waits per name.
 */
export class AdvisoryLocks {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly pool: PgPool,
    /** How long to wait for another holder before a retryable TimeoutError. */
    private readonly waitMs: number,
  ) {}

  withLock<T>(tenant: TenantId, name: string, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(`${tenant}\0${name}`, () => this.holding(tenant, name, work));
  }

  private async holding<T>(tenant: TenantId, name: string, work: () => Promise<T>): Promise<T> {
    const key = lockKey(tenant, name);
    const client = await this.pool.connect().catch((error: unknown) => {
      throw postgresFailure(error);
    });
    let broken: Error | undefined;
    // A statement that failed leaves the session suspect: it is closed, not pooled again.
    const send = (sql: string, values: unknown[]) =>
      client.query(sql, values).catch((error: unknown) => {
        broken = error instanceof Error ? error : new Error(String(error));
        throw postgresFailure(error);
      });
    try {
      await send("SELECT set_config('lock_timeout', $1, false)", [String(this.waitMs)]);
      await send("SELECT set_config('statement_timeout', $1, false)", [String(this.waitMs + 5_000)]);
      await send('SELECT pg_advisory_lock($1)', [key]).catch((error: unknown) => {
        if (!(error instanceof TimeoutError)) throw error;
        throw new TimeoutError(
          `Waited ${this.waitMs} ms for another worker to release "${name}" (it may be refreshing a token). Try again.`,
          { retryable: true, context: { lock: name }, cause: error },
        );
      });
      try {
        return await work();
      } finally {
        // Failing, the session is gone, and its lock with it.
        await send('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
      }
    } finally {
      client.release(broken);
    }
  }
}
